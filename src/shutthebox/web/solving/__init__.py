"""Solver work for the server: the worker processes, what they accept and drop, and the
review's words the page is sent."""
