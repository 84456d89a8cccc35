// One Server-Sent Events stream kept open. EventSource reconnects by itself and sends Last-Event-ID,
// so a restart of cuebot or OBS needs no action; an answer other than the stream (cuebot's database
// away: 503, a limit: 429) makes it give up, so then it is opened again after a pause that grows to a
// minute. While it is down, the page says so in its status line.

export type StreamHandlers = Record<string, (event: MessageEvent<string>) => void>;

const FIRST_PAUSE_MS = 5000;
const LONGEST_PAUSE_MS = 60_000;

/** Opens a stream and keeps it open; `url()` is asked again each time it is opened anew. */
export function keepOpen(url: () => string, handlers: StreamHandlers, status: HTMLElement): void {
  let pauseMs = FIRST_PAUSE_MS;
  function open(): void {
    const source = new EventSource(url());
    for (const [name, handle] of Object.entries(handlers)) {
      source.addEventListener(name, (event) => {
        status.hidden = true;
        pauseMs = FIRST_PAUSE_MS;
        handle(event as MessageEvent<string>);
      });
    }
    source.addEventListener("error", () => {
      status.textContent = "cuebot: reconnecting…";
      status.hidden = false;
      if (source.readyState !== EventSource.CLOSED) return;
      setTimeout(open, pauseMs);
      pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS);
    });
  }
  open();
}
