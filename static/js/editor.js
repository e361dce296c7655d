// The house-rules editor (/rules/new/): steppers on the phone, and the field the thumb is on kept
// where it is while the live preview (and the faults beside the fields) are drawn anew.
// Without this script the steppers are submit buttons and "Preview" redraws the whole page.
// A preview sends only the fields changed since the last one, laid over the draft the server
// keeps (scorekeeping/web/house_drafts.py); the first, and any after the draft was lost, the whole form.
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

// The fields changed since the last preview was asked (a second tap within the preview's delay
// sends both), and whether the next preview sends the whole form.
const changed = new Set();
let whole = true;
document.addEventListener("input", (event) => {
  if (event.target.name && event.target.closest?.("#house-editor")) changed.add(event.target.name);
});
document.addEventListener("htmx:configRequest", (event) => {
  const form = event.detail.elt;
  if (form?.id !== "house-editor" || event.detail.verb !== "post" || event.detail.path !== form.getAttribute("hx-post")) return;
  const params = event.detail.parameters;
  params.shown = [...form.querySelectorAll(".fault-slot")].filter((slot) => slot.childElementCount).map((slot) => slot.id).join(" ");
  const draft = form.querySelector("#house-draft")?.value;
  const names = [...changed];
  changed.clear();
  if (whole || !draft) {  // the whole form: the server keeps it as a new draft
    whole = false;
    delete params.partial;
    return;
  }
  const all = new FormData(form);
  for (const key of Object.keys(params)) {
    if (!["csrfmiddlewaretoken", "draft", "shown"].includes(key)) delete params[key];
  }
  for (const name of names) params[name] = all.getAll(name).at(-1) ?? "";  // an unchecked box: ""
  params.partial = "1";
});
const again = () => {  // the draft was lost, or a preview never arrived: the whole form next
  whole = true;
  const editor = form();
  if (editor) htmx.trigger(editor, "input");
};
document.addEventListener("house-draft-lost", again);
document.addEventListener("htmx:sendError", (event) => { if (event.detail.elt?.id === "house-editor") whole = true; });
document.addEventListener("htmx:responseError", (event) => { if (event.detail.elt?.id === "house-editor") whole = true; });
document.addEventListener("htmx:afterSwap", (event) => {  // "+ round" drew the form anew, with no draft
  if (event.detail.target?.id === "house-editor") whole = true;
});
