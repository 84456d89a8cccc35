// Send the browser's time zone with the login so dates in the dashboard and chat are local.
const link = document.getElementById("login");
if (link) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  link.href = `/auth/login?tz=${encodeURIComponent(zone)}`;
}
