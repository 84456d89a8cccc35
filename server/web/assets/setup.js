// The setup page's copy button: copies the redirect URL to register with the Twitch application.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy);
  const status = document.getElementById("copy-status");
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    navigator.clipboard.writeText(source.textContent.trim()).then(
      () => {
        if (status) status.textContent = "Copied.";
      },
      () => {
        if (status) status.textContent = "Could not copy: select the address and copy it.";
      },
    );
  });
}
