// cucumber-expressions (cucumber's step matching) takes the start of each parameter from
// regexp-match-indices, a polyfill from before JavaScript had match indices. The polyfill
// measures groups by re-parsing each step definition's regular expression with regexp-tree,
// which cost about 80 ms of every run and of every parallel worker. Node has had the `d` flag
// (ES2022 match indices) since 16: this is the polyfill's default export on top of it, and
// package.json's `overrides` puts it in the polyfill's place. test/native-match-indices.test.ts
// checks that it is the one installed and that step arguments keep their values and offsets.

/** Each expression's twin with the `d` flag, made once. */
const withIndices = new WeakMap();

/** `regexp.exec(string)` with `indices` on the match, as the polyfill's `exec(regexp, string)`. */
function exec(regexp, string) {
  let measuring = withIndices.get(regexp);
  if (measuring === undefined) {
    measuring = regexp.hasIndices ? regexp : new RegExp(regexp.source, `${regexp.flags}d`);
    withIndices.set(regexp, measuring);
  }
  measuring.lastIndex = regexp.lastIndex;
  const match = measuring.exec(string);
  regexp.lastIndex = measuring.lastIndex;
  return match;
}

module.exports = exec;
