// The dashboard shell: checks the session, draws the header and the navigation from VIEWS, and shows
// the view named by the address (#/commands …), so every view has a link and the back button works.
import { getData, getJson, shared } from "./lib/api.ts";
import { fill, h } from "./lib/dom.ts";
import { showError } from "./lib/states.ts";
import type { Profile, Session } from "./lib/types.ts";
import type { App, View } from "./view.ts";
import { VIEWS } from "./views.ts";

function currentView(): View {
  const id = window.location.hash.replace(/^#\/?/, "");
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}

function header(session: Session): HTMLElement {
  const user = session.user;
  return h(
    "div",
    { class: "top-inner" },
    h("a", { class: "brand", href: "#/overview" }, "cuebot"),
    h(
      "span",
      { class: "who" },
      user.profile_image_url
        ? h("img", { src: user.profile_image_url, alt: "", width: 32, height: 32 })
        : null,
      h("span", {}, user.display_name),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary small",
        onclick: async () => {
          await fetch("/auth/logout", { method: "POST", credentials: "same-origin" });
          window.location.href = "/";
        },
      },
      "Log out",
    ),
  );
}

function navigation(): HTMLElement {
  return h(
    "ul",
    {},
    VIEWS.map((view) => h("li", {}, h("a", { href: `#/${view.id}`, "data-view": view.id }, view.title))),
  );
}

function show(app: App, focus: boolean): void {
  const view = currentView();
  const main = document.getElementById("view")!;
  for (const link of document.querySelectorAll<HTMLAnchorElement>("#nav a")) {
    if (link.dataset.view === view.id) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = `${view.title} · cuebot`;
  const heading = h("h1", { tabindex: "-1" }, view.title);
  const root = h("div", { class: "view", id: `view-${view.id}` });
  fill(main, heading, root);
  view.render(root, app);
  // Moving focus to the new heading tells keyboard and screen-reader users the page changed.
  if (focus) heading.focus();
}

async function start(): Promise<void> {
  const main = document.getElementById("view")!;
  try {
    const session = await getJson<Session>("/api/system/validate");
    const app: App = { session, profile: shared(() => getData<Profile>("/api/dashboard/profile")) };
    fill(document.getElementById("top")!, header(session));
    fill(document.getElementById("nav")!, navigation());
    window.addEventListener("hashchange", () => show(app, true));
    show(app, false);
  } catch (error) {
    showError(main, error, () => void start());
  }
}

void start();
