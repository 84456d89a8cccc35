// Which page of quotes is asked for: the search, and the `after` cursor of each page seen so far
// (the API pages by cursor), so Previous goes back exactly. Only the newest request's answer is
// ever shown, however the answers to a burst of searches arrive.
import { getData } from "../../lib/api.ts";
import type { QuotePage } from "./types.ts";

export class QuotePages {
  private search = "";
  /** `cursors[i]` is the `after` of page i (none for the first). */
  private cursors: (number | undefined)[] = [undefined];
  private index = 0;
  private latest: Promise<QuotePage> | null = null;

  get pageNumber(): number {
    return this.index + 1;
  }

  get searching(): string {
    return this.search;
  }

  /** A new search starts at the first page; answers false when it is the search already shown. */
  setSearch(search: string): boolean {
    const term = search.trim();
    if (term === this.search) return false;
    this.search = term;
    this.cursors = [undefined];
    this.index = 0;
    return true;
  }

  next(after: number): void {
    this.index += 1;
    this.cursors[this.index] = after;
    this.cursors.length = this.index + 1;
  }

  previous(): void {
    this.index = Math.max(0, this.index - 1);
  }

  private url(): string {
    const params = new URLSearchParams();
    if (this.search) params.set("search", this.search);
    const after = this.cursors[this.index];
    if (after !== undefined) params.set("after", String(after));
    const query = params.toString();
    return `/api/dashboard/quotes${query ? `?${query}` : ""}`;
  }

  /** The current page; when a newer request started meanwhile, its answer instead. */
  async fetch(): Promise<QuotePage> {
    let asked = getData<QuotePage>(this.url());
    this.latest = asked;
    for (;;) {
      try {
        const page = await asked;
        if (asked === this.latest) return page;
      } catch (error) {
        if (asked === this.latest) throw error;
      }
      asked = this.latest ?? asked;
    }
  }
}
