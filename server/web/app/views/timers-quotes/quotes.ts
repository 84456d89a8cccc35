// The Quotes section: a search box (as the streamer types), the quotes of the page by number with
// their game and date, Previous/Next, and the form to add one. Chat adds them too (!addquote).
import { sendData } from "../../lib/api.ts";
import { debounce } from "../../lib/debounce.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { plural } from "../../lib/format.ts";
import { newestOnly } from "../../lib/latest.ts";
import { load } from "../../lib/states.ts";
import { quoteForm } from "./quote-form.ts";
import { QuotePages } from "./quote-pages.ts";
import { quoteRow } from "./quote-row.ts";
import { QUOTE_LIMITS, type Quote, type QuotePage } from "./types.ts";

function emptyState(search: string): HTMLElement {
  if (search) return h("p", { class: "state state-empty" }, `No quote holds “${search}”.`);
  return h(
    "p",
    { class: "state state-empty" },
    "No quotes yet. Your moderators add them from chat with ",
    h("code", {}, "!addquote <text>"),
    ", or add one below.",
  );
}

function countText(page: QuotePage, search: string): string {
  if (search) return `${plural(page.total, "quote")} ${page.total === 1 ? "holds" : "hold"} “${search}”`;
  return `${plural(page.total, "quote")} of at most ${page.limit.toLocaleString("en-US")}`;
}

interface Pager {
  element: HTMLElement;
  show: (page: QuotePage) => void;
  /** A request is under way: Previous and Next wait for its page (no second Next on the same cursor). */
  busy: () => void;
}

function pager(pages: QuotePages, go: (move: () => void) => void): Pager {
  const previous = h("button", { type: "button", class: "secondary small" }, "Previous");
  const next = h("button", { type: "button", class: "secondary small" }, "Next");
  const where = h("span", { class: "muted", id: "quote-page" });
  const element = h(
    "nav",
    { class: "row tq-pager", "aria-label": "Quote pages", hidden: true },
    previous,
    where,
    next,
  );
  let after: number | null = null;
  previous.addEventListener("click", () => go(() => pages.previous()));
  next.addEventListener("click", () => {
    const cursor = after;
    if (cursor !== null) go(() => pages.next(cursor));
  });
  return {
    element,
    show: (page) => {
      const count = Math.max(1, Math.ceil(page.total / QUOTE_LIMITS.pageSize));
      after = page.next;
      element.hidden = pages.pageNumber === 1 && page.next === null;
      where.textContent = `Page ${pages.pageNumber} of ${Math.max(count, pages.pageNumber)}`;
      previous.disabled = pages.pageNumber === 1;
      next.disabled = page.next === null;
    },
    busy: () => {
      after = null;
      previous.disabled = true;
      next.disabled = true;
    },
  };
}

/** The quote number whose edit form is open in `box`, if any. */
function openEdit(box: HTMLElement): string | undefined {
  return box.querySelector<HTMLElement>("li.tq-editing")?.dataset.quote;
}

/** A row being edited in `box`, kept (with what was typed) for a redraw of the same quotes. */
function editedRows(box: HTMLElement, kept: Map<number, HTMLLIElement>): Map<number, HTMLLIElement> {
  const rows = new Map([...kept].filter(([, row]) => row.classList.contains("tq-editing")));
  for (const row of box.querySelectorAll<HTMLLIElement>("li.tq-editing"))
    rows.set(Number(row.dataset.quote), row);
  return rows;
}

/** The search box; `allowed` says whether the list may change now (no edit open), else why not. */
function searchBox(pages: QuotePages, reload: () => void, allowed: () => boolean): HTMLElement {
  const input = h("input", { type: "search", id: "quote-search", autocomplete: "off", spellcheck: "false" });
  const changed = () => {
    if (input.value.trim() !== pages.searching && allowed() && pages.setSearch(input.value)) reload();
  };
  input.addEventListener("input", debounce(changed, 300));
  const form = h(
    "form",
    { role: "search", class: "tq-search", novalidate: true },
    h("label", { for: input.id }, "Search quotes"),
    input,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    changed();
  });
  return form;
}

export function quotesSection(): HTMLElement {
  const headingId = uid("quotes");
  const pages = new QuotePages();
  const count = h("p", { class: "muted tq-count", id: "quote-count", "aria-live": "polite" });
  const notice = h("p", { class: "tq-notice", id: "quote-notice", role: "status" });
  const box = h("div", { class: "tq-box", id: "quotes", tabindex: -1 });
  // Rows with an open edit survive a redraw that shows their quote again (an add, a delete elsewhere).
  let kept = new Map<number, HTMLLIElement>();
  // Only the newest request's page (or failure) is drawn, whatever order the answers come in.
  const newest = newestOnly();
  const render = (page: QuotePage) => {
    count.textContent = countText(page, pages.searching);
    nav.show(page);
    if (page.items.length === 0 && pages.pageNumber > 1) return move(() => pages.previous());
    if (page.items.length === 0) return fill(box, emptyState(pages.searching));
    const rows = page.items.map((q) => kept.get(q.number) ?? quoteRow(q, { deleted }));
    fill(box, h("ol", { class: "tq-list", id: "quote-list" }, rows));
  };
  const reload = () => {
    kept = editedRows(box, kept);
    nav.busy();
    fill(notice);
    void load(box, () => newest(pages.fetch()), render);
  };
  const move = (change: () => void) => {
    change();
    reload();
    box.focus();
  };
  /** Another page or search would drop an open edit: the streamer finishes it first. */
  const allowed = () => {
    const editing = openEdit(box);
    if (editing === undefined) return true;
    fill(notice, h("span", { class: "error-text" }, `Finish or cancel the edit of quote #${editing} first.`));
    return false;
  };
  const deleted = () => move(() => {});
  const nav = pager(pages, (change) => allowed() && move(change));
  const form = quoteForm({
    label: "Add a quote",
    save: async (values) => {
      const quote = await sendData<Quote>("POST", "/api/dashboard/quotes", values);
      reload();
      return `Quote #${quote.number} added.`;
    },
  });
  reload();
  return h(
    "section",
    { class: "card tq-section", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Quotes"),
    h(
      "p",
      { class: "tq-rules" },
      "In chat, ",
      h("code", {}, "!quote"),
      " answers a random quote, ",
      h("code", {}, "!quote 12"),
      " quote #12 and ",
      h("code", {}, "!quote <word>"),
      " one holding that word. Moderators add and delete them with ",
      h("code", {}, "!addquote <text>"),
      " and ",
      h("code", {}, "!delquote <number>"),
      ". A deleted quote's number is never given to another.",
    ),
    // The form comes before the list here: a page of quotes is long, timers are few.
    h("h3", { class: "tq-add" }, "Add a quote"),
    form,
    h("h3", { class: "tq-add" }, "Your quotes"),
    searchBox(pages, reload, allowed),
    count,
    notice,
    box,
    nav.element,
  );
}
