/** The pages of a first run (CONTRACT §2): the setup page, and the landing page while Twitch is not configured. */

import { configureCommand, type Invocation } from "../core/invocation.ts";
import { escapeHtml, htmlResponse } from "./page.ts";

/** Twitch's page for registering an application. */
export const TWITCH_CONSOLE_URL = "https://dev.twitch.tv/console/apps/create";

type FieldName = "client_id" | "client_secret" | "owner";

/** What the setup page shows. */
export interface SetupPageInput {
  token: string;
  /** `<public URL>/auth/callback`, to register with the Twitch application. */
  redirectUrl: string;
  invocation: Invocation;
  /** What was typed, shown again with the problem (never the secret). */
  form?: Partial<Record<FieldName, string>>;
  /** The field the setup refused (identity/setup.ts), and why. */
  problem?: { field: string; reason: string };
}

const HEAD = (title: string, script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · cuebot</title><link rel="icon" href="/assets/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/style.css">${script}</head>`;

/** A field of the form, with its problem (if it is the one named) read out beside it. */
function field(input: SetupPageInput, name: FieldName, label: string, attributes: string, hint = ""): string {
  const reason = input.problem?.field === name ? input.problem.reason : "";
  const problem = reason.charAt(0).toUpperCase() + reason.slice(1);
  const value = name === "client_secret" ? "" : (input.form?.[name] ?? "");
  const described = [hint ? `${name}-hint` : "", problem ? `${name}-error` : ""].filter(Boolean).join(" ");
  return `<div class="field"><label for="${name}">${label}</label>
<input id="${name}" name="${name}" ${attributes} value="${escapeHtml(value)}"${problem ? ' aria-invalid="true"' : ""}${described ? ` aria-describedby="${described}"` : ""}>
${hint ? `<span class="hint" id="${name}-hint">${hint}</span>` : ""}${problem ? `<span class="field-error" id="${name}-error">${escapeHtml(problem)}</span>` : ""}</div>`;
}

const PLAIN = 'type="text" autocomplete="off" autocapitalize="off" spellcheck="false"';

/** The steps from a Twitch account to a logged-in dashboard, and the form that finishes them. */
export function setupPage(input: SetupPageInput, status = 200): Response {
  const redirect = escapeHtml(input.redirectUrl);
  const problem = input.problem
    ? '<p class="notice warn" role="alert">Nothing was saved yet: correct the field marked below, and paste the Client Secret again.</p>'
    : "";
  const html = `${HEAD("Connect Twitch", '<script src="/assets/setup.js" defer></script>')}
<body><main class="narrow setup">
<h1>Connect cuebot to Twitch</h1>
<p class="lead">You log in to cuebot with Twitch, through a Twitch application you register once. It takes a few minutes, and cuebot needs no restart afterwards.</p>
${problem}
<ol class="steps">
<li>Open <a href="${TWITCH_CONSOLE_URL}" target="_blank" rel="noopener noreferrer">Twitch's developer console</a> (log in with your Twitch account) and register an application.</li>
<li><strong>Name:</strong> anything Twitch accepts, such as "cuebot" and your channel's name.</li>
<li><strong>OAuth Redirect URL:</strong> exactly this address:
<code class="line" id="redirect-url">${redirect}</code>
<button type="button" class="small secondary" data-copy="redirect-url" hidden>Copy the redirect URL</button><span class="hint" role="status" id="copy-status"></span></li>
<li><strong>Category:</strong> Chat Bot. <strong>Client type:</strong> Confidential. Then click Create.</li>
<li>Open the application (Manage), copy its <strong>Client ID</strong>, click <strong>New Secret</strong> and copy the <strong>Client Secret</strong>.</li>
<li>Paste both here:</li>
</ol>
<form method="post" action="/setup" class="card" novalidate>
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
${field(input, "client_id", "Client ID", `${PLAIN} required maxlength="128"`)}
${field(input, "client_secret", "Client Secret", 'type="password" autocomplete="off" required maxlength="128"')}
${field(input, "owner", "Your Twitch login (optional)", `${PLAIN} maxlength="26"`, "Whose account this is: it gets the highest limits (Partner) when it first logs in.")}
<p><button type="submit">Save and connect</button></p>
</form>
<p class="muted">Just looking? The demo tries everything without a Twitch account: stop cuebot and run <code>${escapeHtml(input.invocation.demo)}</code></p>
</main></body></html>`;
  // The page holds the token: no Referer may carry its address to Twitch's console.
  return htmlResponse(html, status, { "referrer-policy": "no-referrer" });
}

/** The landing page's login button, replaced while Twitch is not configured. */
const LOGIN_ROW = /<p id="login-row">[\s\S]*?<\/p>/;
/** Its "Already logged in? Open the dashboard", left out while Twitch is not configured. */
const DASHBOARD_ROW = /<span id="dashboard-row">[\s\S]*?<\/span>/;

/**
 * The landing page while nobody can log in: no dead "Log in with Twitch" and no way to a dashboard
 * nobody can be logged in to, but where the setup link is, the command that configures Twitch, and
 * the demo.
 */
export function landingWithoutTwitch(landing: string, invocation: Invocation): string {
  const notice = `<div class="notice warn" id="not-configured">
<p><strong>Twitch login is not set up yet.</strong></p>
${howToSetUp(invocation)}
</div>`;
  return landing.replace(LOGIN_ROW, notice).replace(DASHBOARD_ROW, "");
}

/** The setup link, the command and the demo, each command in a box of its own (a phone breaks none mid-flag). */
function howToSetUp(invocation: Invocation): string {
  return `<p>Open the setup link cuebot printed in the terminal where it started (it ends in /setup?token=…) and follow its steps. Or configure it from the terminal (or with the environment variables CUEBOT_TWITCH_CLIENT_ID and CUEBOT_TWITCH_CLIENT_SECRET), then restart cuebot:</p>
<code class="line">${escapeHtml(configureCommand(invocation))}</code>
<p>Just looking? The demo tries everything without a Twitch account:</p>
<code class="line">${escapeHtml(invocation.demo)}</code>`;
}

/** `/auth/login`'s 503 page while Twitch is not configured: what to do instead, as the landing page says it. */
export function loginNotConfiguredPage(invocation: Invocation): Response {
  const html = `${HEAD("Login is not configured", "")}
<body><main class="narrow"><h1>Login is not configured</h1>
<p>Twitch login is not configured on this server yet.</p>
${howToSetUp(invocation)}
<p><a class="button" href="/">Back to cuebot</a></p>
</main></body></html>`;
  return htmlResponse(html, 503);
}
