/* Small things on every page, each also done without JavaScript or not needed there. */
document.documentElement.classList.add("js");
const on = (type, selector, handler) => document.addEventListener(type, (event) => {
  const el = event.target.closest?.(selector);
  if (el) handler(el, event);
});
on("click", "[data-speak]", (button) => {  // the announcement read aloud, in the page's language
  if (!("speechSynthesis" in window)) return;
  const utterance = new SpeechSynthesisUtterance(button.dataset.speak);
  utterance.lang = document.documentElement.lang || "en";
  speechSynthesis.cancel();
  speechSynthesis.speak(utterance);
});
on("click", "[data-copy]", (button) => {  // copy a share link
  const input = document.querySelector(button.dataset.copy);
  input?.select();
  if (input && navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
});
on("click", "[data-share]", (button) => {  // the phone's own share sheet where it has one, else copy
  const input = document.querySelector(button.dataset.share);
  if (!input) return;
  if (navigator.share) navigator.share({ title: document.title, url: input.value }).catch(() => {});
  else { input.select(); navigator.clipboard?.writeText(input.value).catch(() => {}); }
});
on("click", "[data-print]", () => window.print());  // a page's results on paper (the browser's own menu does it too)
on("change", "select[data-autosubmit]", (select) => select.form.submit());  // the language
// A choice made before this script ran (a slow phone, the page still loading) counts all the same.
// The select keeps no restored value (autocomplete="off"), so only the person's own choice differs.
document.querySelectorAll("select[data-autosubmit]").forEach((select) => {
  if ([...select.options].some((option) => option.selected !== option.defaultSelected)) select.form.submit();
});
on("input", "#new-game input[name=player]", (input) => {  // the dealer list follows the names
  const option = document.querySelector(`#dealer option[value="${input.id.replace("player-", "")}"]`);
  if (option && input.value.trim()) option.textContent = input.value.trim();
});
// Enter (Next, Go) on a name goes on to the next name; on the last one it closes the keyboard.
// The form's disabled default button already keeps Enter from starting a game before all are in.
on("keydown", "#new-game input[name=player]", (input, event) => {
  if (event.key !== "Enter" || event.isComposing) return;
  event.preventDefault();
  const names = [...input.form.querySelectorAll("input[name=player]")];
  const next = names[names.indexOf(input) + 1];
  if (next) next.focus();
  else input.blur();
});
// Over plain http (a LAN address) the phone cannot install the app or keep it offline: said
// once, plainly, on the table page.
document.addEventListener("DOMContentLoaded", () => {
  const note = document.getElementById("insecure-note");
  if (!note || window.isSecureContext) return;
  try {
    if (localStorage.getItem("insecure-note-seen")) return;
    localStorage.setItem("insecure-note-seen", "1");
  } catch { /* private mode: said each time */ }
  note.hidden = false;
});
// Installable and offline-aware: the service worker keeps the shell, the rules and the games seen here.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
  // One fresh copy of the table page per update: htmx settles each swapped part (an update swaps
  // several), and a copy a part each was several full pages a change, queued on the phone's six
  // connections ahead of what the player asked for. Asked for once the update has settled.
  let refresh = 0;
  document.addEventListener("htmx:afterSettle", () => {
    if (!navigator.serviceWorker.controller || !document.getElementById("table-body")) return;
    clearTimeout(refresh);
    refresh = setTimeout(() => {
      navigator.serviceWorker.controller?.postMessage({ refresh: location.pathname });
    }, 200);
  });
}
