"""The HTTP edge: the checks every request passes, the routes (one router per area of the
API), what they share (:mod:`~shutthebox.web.api.deps`) and the answer to each refusal."""
