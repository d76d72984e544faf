// interop.html's filters: by task, result, blame, client and server, over every element marked
// "filterable" (data-task, data-result, data-blame, data-client, data-server; an element is
// checked on the ones it has). The state lives in the page's URL (`#blame=neither&task=update`),
// so a reload or a shared link shows the same filter. A classic script inlined in the page, so it
// works opened from disk; without it the page shows every cell. The pure part is tested in node.
((scope) => {
  const DIMENSIONS = ["task", "result", "blame", "client", "server"];

  /** The filter a URL asks for: dimension → the values shown; a dimension left out shows all. */
  function parseState(hash, search) {
    const state = {};
    for (const text of [search, hash]) {
      const params = new URLSearchParams(String(text || "").replace(/^[#?]/, ""));
      for (const name of DIMENSIONS) {
        const value = params.get(name);
        if (value !== null) state[name] = value === "" ? [] : value.split(",");
      }
    }
    return state;
  }

  /** The URL fragment for a filter; a dimension with every value shown is left out. */
  function encodeState(state, all) {
    const params = new URLSearchParams();
    for (const name of DIMENSIONS) {
      const shown = state[name];
      if (shown && !(all[name] || []).every((value) => shown.includes(value))) params.set(name, shown.join(","));
    }
    return params.toString().replace(/%2C/g, ",");
  }

  /** Whether an item (its data attributes) passes the filter; a cell without blame counts as "none". */
  function visible(item, state) {
    return DIMENSIONS.every((name) => {
      if (!(name in item) || !state[name]) return true;
      return state[name].includes(item[name] || "none");
    });
  }

  function boxes(form, name) {
    return Array.from(form.querySelectorAll(`input[name="${name}"]`));
  }

  function apply(document, state) {
    const items = Array.from(document.querySelectorAll(".filterable"));
    for (const element of items) {
      const item = {};
      for (const name of DIMENSIONS)
        if (element.hasAttribute(`data-${name}`)) item[name] = element.getAttribute(`data-${name}`);
      element.hidden = !visible(item, state);
    }
    for (const pair of Array.from(document.querySelectorAll("td.pair"))) {
      pair.classList.toggle("nothing-shown", !pair.querySelector(".mark:not([hidden])"));
    }
    const marks = Array.from(document.querySelectorAll("#matrix .mark"));
    const shown = marks.filter((mark) => !mark.hidden).length;
    document.getElementById("shown").textContent = `${shown} of ${marks.length} task results shown`;
  }

  scope.sxdInterop = { parseState, encodeState, visible };
  if (typeof document !== "undefined") {
    const form = document.getElementById("filters");
    form.hidden = false;
    const all = {};
    for (const name of DIMENSIONS) all[name] = boxes(form, name).map((box) => box.value);
    const fromUrl = () => {
      const state = parseState(location.hash, location.search);
      for (const name of DIMENSIONS)
        for (const box of boxes(form, name)) box.checked = !state[name] || state[name].includes(box.value);
      apply(document, state);
    };
    form.addEventListener("input", () => {
      const state = {};
      for (const name of DIMENSIONS)
        state[name] = boxes(form, name)
          .filter((box) => box.checked)
          .map((box) => box.value);
      const hash = encodeState(state, all);
      // The form's state replaces the whole filter, the query's too.
      history.replaceState(null, "", `${location.pathname}${hash ? `#${hash}` : ""}`);
      apply(document, state);
    });
    form.addEventListener("submit", (event) => event.preventDefault());
    window.addEventListener("hashchange", fromUrl);
    fromUrl();
  }
})(globalThis);
