// Overview: who is logged in (and their role, where several streamers share the install), whether the stream is live, command usage as a chart
// (period 1/7/30/90 days) with a table alternative, top callers, the activity feed, chat and clips.
import { getData, shared } from "../lib/api.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { dateTime, durationText, NO_REPLY_TEXT, plural, time } from "../lib/format.ts";
import { load, showError } from "../lib/states.ts";
import type { ActivityPage, Analytics, Live, Profile } from "../lib/types.ts";
import { usageChartToWidth, usageSeries, usageTable } from "../lib/usage-chart.ts";
import type { App, View } from "../view.ts";

const PERIODS = [1, 7, 30, 90] as const;

function card(title: string, ...content: Node[]): HTMLElement {
  const id = uid("card");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), ...content);
}

function profileCard(app: App): HTMLElement {
  const body = h("div", {});
  void load(
    body,
    () => app.profile(),
    (p: Profile) =>
      fill(
        body,
        h(
          "div",
          { class: "profile" },
          p.profile_image_url ? h("img", { src: p.profile_image_url, alt: "", width: 56, height: 56 }) : null,
          h(
            "div",
            {},
            h("strong", {}, p.display_name),
            h(
              "div",
              { class: "muted", id: "profile-who" },
              p.several_accounts ? `@${p.login} · role ${p.role}` : `@${p.login}`,
            ),
          ),
        ),
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, "Bot commands"),
          h("dd", {}, `${p.limits.bot_per_minute} a minute`),
          h("dt", {}, "Clips and chatters"),
          h("dd", {}, `${p.limits.heavy_per_minute} a minute`),
          h("dt", {}, "Dashboard"),
          h("dd", {}, `${p.limits.panel_per_minute} a minute`),
          h("dt", {}, "Time zone"),
          h("dd", {}, app.session.user.timezone),
          h("dt", {}, "Session until"),
          h("dd", {}, dateTime(app.session.tokenExpiresAt)),
        ),
      ),
  );
  return card("Profile", body);
}

function liveCard(): HTMLElement {
  const body = h("div", { id: "live-state" });
  void load(
    body,
    () => getData<Live>("/api/dashboard/live"),
    (live) =>
      fill(
        body,
        live.live
          ? h(
              "div",
              {},
              h("p", {}, h("span", { class: "badge live" }, "Live"), " ", live.title ?? ""),
              h(
                "dl",
                { class: "facts" },
                h("dt", {}, "Category"),
                h("dd", {}, live.game_name || "none"),
                h("dt", {}, "Viewers"),
                h("dd", {}, String(live.viewer_count ?? 0)),
                h("dt", {}, "Uptime"),
                h("dd", {}, durationText(live.uptime_seconds ?? 0)),
              ),
            )
          : h("p", {}, h("span", { class: "badge" }, "Offline"), " The channel is not live."),
      ),
  );
  return card("Stream", body);
}

function usageCard(): { section: HTMLElement; callers: HTMLElement } {
  const body = h("div", { id: "usage" });
  const callersBody = h("div", { id: "top-callers" });
  const select = h(
    "select",
    { id: "usage-period" },
    PERIODS.map((days) =>
      h("option", { value: days, selected: days === 7 }, days === 1 ? "Last day" : `Last ${days} days`),
    ),
  );
  const refresh = () => {
    const days = Number(select.value);
    const analytics = shared(() => getData<Analytics>(`/api/dashboard/analytics?days=${days}`));
    void load(
      body,
      analytics,
      (a) => {
        const series = usageSeries(a, Date.now());
        fill(
          body,
          h(
            "p",
            { class: "summary" },
            `${plural(a.total_calls, "call")} (${a.ok_calls} answered) from ${plural(a.distinct_callers, "viewer")}.`,
          ),
          usageChartToWidth(series),
          h("details", {}, h("summary", {}, "Show the numbers"), usageTable(series)),
        );
      },
      { isEmpty: (a) => a.total_calls === 0, emptyText: "No command calls in this period yet." },
    );
    void load(
      callersBody,
      analytics,
      (a) =>
        fill(
          callersBody,
          h(
            "ol",
            { class: "ranked" },
            a.top_callers.map((c) =>
              h("li", {}, h("span", {}, c.caller), h("span", { class: "muted" }, plural(c.calls, "call"))),
            ),
          ),
        ),
      {
        isEmpty: (a) => a.top_callers.length === 0,
        emptyText: "Nobody has called a command in this period.",
      },
    );
  };
  select.addEventListener("change", refresh);
  refresh();
  const section = card(
    "Command usage",
    h("label", { class: "inline-field" }, h("span", {}, "Period"), select),
    body,
  );
  section.classList.add("wide");
  return { section, callers: card("Top callers", callersBody) };
}

type CommandItem = Extract<ActivityPage["items"][number], { kind: "command" }>;

/**
 * A command call in the feed: who typed it and how it went; a run from the dashboard is labelled
 * "test", and a command a limit kept from a reply says why under it, in place of an outcome.
 */
function commandItem(i: CommandItem): HTMLElement {
  const outcome = i.refused
    ? null
    : h("span", { class: i.outcome === "ok" ? "outcome ok" : "outcome bad" }, i.outcome);
  return h(
    "li",
    { class: i.refused ? "no-reply" : "" },
    h("time", { datetime: i.at }, time(i.at)),
    h(
      "span",
      {},
      h("strong", {}, `!${i.command}`),
      i.caller ? ` by ${i.caller}` : "",
      i.refused ? h("span", { class: "why" }, NO_REPLY_TEXT[i.refused]) : null,
    ),
    i.test ? h("span", { class: "badge" }, "test") : null,
    outcome,
  );
}

function activityCard(): HTMLElement {
  const list = h("ul", { class: "feed", id: "activity-list" });
  const more = h("button", { type: "button", class: "secondary small", hidden: true }, "Older");
  const body = h("div", {});
  let cursor: string | null = null;
  const item = (i: ActivityPage["items"][number]) =>
    i.kind === "alert"
      ? h(
          "li",
          { class: "alert-event" },
          h("time", { datetime: i.at }, time(i.at)),
          h("span", {}, i.text),
          h("span", { class: "outcome ok" }, i.type),
        )
      : commandItem(i);
  void load(
    body,
    () => getData<ActivityPage>("/api/dashboard/activity"),
    (page) => {
      fill(list, page.items.map(item));
      cursor = page.cursor;
      more.hidden = !cursor;
      fill(body, list, more);
    },
    {
      isEmpty: (p) => p.items.length === 0,
      emptyText:
        "No command calls or alerts yet. They appear here as chat uses commands and viewers follow, subscribe, cheer or raid.",
    },
  );
  more.addEventListener("click", async () => {
    try {
      const page = await getData<ActivityPage>(`/api/dashboard/activity?before=${cursor}`);
      list.append(...page.items.map(item));
      cursor = page.cursor;
      more.hidden = !cursor;
    } catch (error) {
      const box = h("div", {});
      body.append(box);
      showError(box, error, () => more.click());
    }
  });
  return card("Activity", body);
}

function chatCard(): HTMLElement {
  const body = h("div", {});
  void load(
    body,
    () =>
      getData<{ items: { user_name: string }[]; cursor: string | null }>(
        "/api/dashboard/chatters?first=1000",
      ),
    (d) =>
      fill(
        body,
        h("p", {}, `${d.items.length}${d.cursor ? "+" : ""} in chat`),
        h(
          "p",
          { class: "muted names" },
          d.items
            .slice(0, 30)
            .map((c) => c.user_name)
            .join(", ") + (d.items.length > 30 ? "…" : ""),
        ),
      ),
    { isEmpty: (d) => d.items.length === 0, emptyText: "Nobody is in chat right now." },
  );
  return card("In chat", body);
}

function clipsCard(): HTMLElement {
  const body = h("div", {});
  type Clip = { url: string; title: string; view_count: number; creator_name: string };
  void load(
    body,
    () => getData<{ items: Clip[] }>("/api/dashboard/get-clips?first=5&period=week"),
    (d) =>
      fill(
        body,
        h(
          "ul",
          { class: "plain" },
          d.items.map((clip) =>
            h(
              "li",
              {},
              h("a", { href: clip.url, target: "_blank", rel: "noopener noreferrer" }, clip.title),
              h("span", { class: "muted" }, ` ${plural(clip.view_count, "view")}, by ${clip.creator_name}`),
            ),
          ),
        ),
      ),
    { isEmpty: (d) => d.items.length === 0, emptyText: "No clips this week yet." },
  );
  return card("Top clips this week", body);
}

export const overviewView: View = {
  id: "overview",
  title: "Overview",
  render(root, app) {
    const usage = usageCard();
    fill(
      root,
      h(
        "div",
        { class: "cards" },
        profileCard(app),
        liveCard(),
        usage.callers,
        usage.section,
        activityCard(),
        chatCard(),
        clipsCard(),
      ),
    );
  },
};
