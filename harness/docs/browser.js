// The site's filters: by level, by behaviour and by words, over every element marked
// "filterable" (data-level, data-behaviour, data-search). A classic script, not a module, so the
// pages work opened from disk; the matching itself is a pure function, tested in node.
((scope) => {
  /** Whether an item (level, behaviour, search text) passes the filters (levels, behaviours, query). */
  function matches(item, filters) {
    if (!filters.levels.includes(item.level)) return false;
    if (filters.behaviours && !filters.behaviours.includes(item.behaviour)) return false;
    const words = filters.query.toLowerCase().split(/\s+/).filter(Boolean);
    return words.every((word) => item.text.includes(word));
  }

  function checked(form, name) {
    const boxes = Array.from(form.querySelectorAll(`input[name="${name}"]`));
    return boxes.length === 0 ? undefined : boxes.filter((b) => b.checked).map((b) => b.value);
  }

  function apply(document) {
    const form = document.getElementById("filters");
    const filters = {
      levels: checked(form, "level") ?? [],
      behaviours: checked(form, "behaviour"),
      query: document.getElementById("search").value,
    };
    const items = Array.from(document.querySelectorAll(".filterable"));
    let shown = 0;
    for (const element of items) {
      const item = { level: element.dataset.level, behaviour: element.dataset.behaviour, text: element.dataset.search };
      element.hidden = !matches(item, filters);
      if (!element.hidden) shown += 1;
    }
    document.getElementById("shown").textContent = `${shown} of ${items.length} rules shown`;
  }

  scope.sxdDocs = { matches };
  if (typeof document !== "undefined") {
    const form = document.getElementById("filters");
    form.addEventListener("input", () => apply(document));
    form.addEventListener("submit", (event) => event.preventDefault());
    apply(document);
  }
})(globalThis);
