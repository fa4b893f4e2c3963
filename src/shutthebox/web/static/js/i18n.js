// The page's own words (buttons, keys, labels) in the reader's language. Sentences about the
// game come from the server already in that language; only what is about the page is here.

/** t("Roll the dice") is the page's text in the reader's language. */
export function t(text) {
  return text;
}
