// The house-rules editor (/rules/new/): steppers on the phone, and the field the thumb is on kept
// where it is while the live preview (and the faults beside the fields) are drawn anew.
// Without this script the steppers are submit buttons and "Preview" redraws the whole page.
const form = () => document.getElementById("house-editor");
let anchor = null;  // the control last touched, and its top on the screen
let anchorTop = 0;

const remember = (el) => {
  if (!el?.closest?.("#house-editor")) return;
  anchor = el;
  anchorTop = el.getBoundingClientRect().top;
};
const keep = () => {  // after a swap: the touched control back at its place on the screen
  if (!anchor?.isConnected) return;
  const moved = anchor.getBoundingClientRect().top - anchorTop;
  if (Math.abs(moved) >= 0.5) window.scrollBy(0, moved);
};
const showRound = () => {  // the preview scrolls (inside its box) to the round being changed
  const round = anchor?.closest?.("[data-round]")?.dataset.round ?? anchor?.dataset?.round;
  const body = document.getElementById("preview-body");
  const row = round && document.getElementById(`preview-round-${round}`);
  if (body && row) body.scrollTop = row.offsetTop - row.offsetHeight;
};

document.addEventListener("pointerdown", (event) => remember(event.target.closest?.("button, input, select, label")));
document.addEventListener("focusin", (event) => remember(event.target));
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("#house-editor [data-step]");
  if (!button) return;
  event.preventDefault();
  const input = document.getElementById(button.dataset.for);
  if (!input) return;
  const low = Number(input.dataset.min || 0);
  const high = Number(input.dataset.max || 99);
  const now = /^\d+$/.test(input.value.trim()) ? Number(input.value) : low;
  input.value = String(Math.min(Math.max(now + Number(button.dataset.step), low), high));
  remember(button);
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
document.addEventListener("htmx:beforeSwap", () => { if (anchor?.isConnected) anchorTop = anchor.getBoundingClientRect().top; });
document.addEventListener("htmx:oobAfterSwap", keep);
document.addEventListener("htmx:afterSwap", () => {
  keep();
  showRound();
});
// "+ round" redraws the whole form: the sections open before stay open.
let opened = [];
document.addEventListener("htmx:beforeRequest", () => {
  opened = [...(form()?.querySelectorAll("details[open]") ?? [])].map((d) => d.id);
});
document.addEventListener("htmx:afterSettle", () => {
  for (const id of opened) document.getElementById(id)?.setAttribute("open", "");
});
// A meld chosen in a round's empty row: the next empty row shows, to add one more.
document.addEventListener("change", (event) => {
  const select = event.target.closest?.("#house-editor .meld-row select");
  if (!select?.value) return;
  select.closest("fieldset")?.querySelector(".meld-row[hidden]")?.removeAttribute("hidden");
});
