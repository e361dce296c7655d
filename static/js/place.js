/* Nothing moves under the thumb, and nothing covers what it taps next. */
const bar = () => document.querySelector("#entry .record-bar");
const stuck = (el) => el.getBoundingClientRect().bottom >= window.innerHeight - 1;
const isBody = (event) => event.detail.target?.id === "table-body";

// After Record, undo or redo the entry stays where it was on the screen, whatever the
// announcement above it now says (unless a refusal's error is brought into view).
let entryTop = null;
document.addEventListener("htmx:beforeSwap", (event) => {
  entryTop = isBody(event) ? document.getElementById("entry")?.getBoundingClientRect().top ?? null : null;
});
document.addEventListener("htmx:afterSwap", (event) => {
  const entry = document.getElementById("entry");
  if (entryTop === null || !entry || !isBody(event)) return;
  if (!document.querySelector("#entry-errors[data-refused] li, #entry .error")) window.scrollBy(0, entry.getBoundingClientRect().top - entryTop);
  entryTop = null;
});

// The notice ("Round 3 recorded. Undo") covers no control and moves none: the Record bar keeps a
// row for it (its first row, where each hand's penalty so far is, reserved at the notice's height
// whether a notice shows or not), and the notice sits over that row while it shows. Without the
// bar on the screen it sits at the bottom of the screen.
function placeNotice() {
  const toast = document.getElementById("toast");
  const record = bar();
  if (!toast?.firstChild) return;
  const height = window.innerHeight;
  const top = record?.getBoundingClientRect().top;
  if (!record || top < height / 4 || top > height) { toast.style.bottom = ""; return; }  // no bar on the screen
  const row = record.querySelector(".running") || record;
  toast.style.bottom = `${Math.max(0, height - row.getBoundingClientRect().bottom + 6)}px`;  // 6 px clear of Record
}
// The hand being entered and its points stay in view above a Record bar stuck to the bottom of
// the screen, when an entry came by push (another phone's step); after this phone's own taps
// nothing moves the keypad.
function keepHandInView() {
  const record = bar();
  const hand = document.querySelector("#entry .player-entry.active .result");
  if (!record || !hand?.offsetParent) return;
  const barTop = record.getBoundingClientRect().top;
  const under = hand.getBoundingClientRect().bottom - barTop;
  if (under > 0 && stuck(record) && barTop > window.innerHeight / 4) window.scrollBy(0, under + 4);
}
document.addEventListener("htmx:afterSettle", placeNotice);
document.addEventListener("DOMContentLoaded", placeNotice);
window.addEventListener("scroll", placeNotice, { passive: true });
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (event.detail.target?.id === "entry-slot") setTimeout(() => { placeNotice(); keepHandInView(); placeNotice(); }, 0);
});
// The notice goes at the next tap elsewhere, or by itself after about 8 s; nothing moves when it goes.
const NOTICE_MS = 8000;
let noticeTimer = null;
function dismissNotice() {
  clearTimeout(noticeTimer);
  const toast = document.getElementById("toast");
  if (toast?.firstChild) toast.textContent = "";
}
document.addEventListener("click", (event) => {
  if (!event.target.closest("#toast")) dismissNotice();
});
function noticeShown() {
  clearTimeout(noticeTimer);
  if (document.getElementById("toast")?.firstChild) noticeTimer = setTimeout(dismissNotice, NOTICE_MS);
}
document.addEventListener("DOMContentLoaded", noticeShown);
// A change made on another phone is told the same way, once (a hand sent in later brings the same
// notice again: not shown twice), and never over this phone's own notice of its own change.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const { target, fragment } = event.detail;
  if (target?.id !== "toast") return;
  const version = Number(fragment?.querySelector?.("[data-version]")?.dataset.version || 0);
  if (fragment?.querySelector?.("[data-told]") && version <= Number(target.dataset.version || 0)) {
    event.detail.shouldSwap = false;
    return;
  }
  if (version) target.dataset.version = String(version);
});
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (event.detail.target?.id !== "toast") return;
  placeNotice();
  noticeShown();
});

// The finish reaches every phone: when the last round is recorded, here or on another phone, the
// winner, the places and Play again come into view (a page opened after the end stays at its top).
let wasOver = null;
function showFinish() {
  const banner = document.querySelector("#final .winner-banner");
  if (wasOver === false && banner) document.getElementById("final").scrollIntoView({ block: "start" });
  wasOver = Boolean(banner);
}
document.addEventListener("DOMContentLoaded", showFinish);
document.addEventListener("htmx:afterSettle", showFinish);
document.addEventListener("htmx:oobAfterSwap", (event) => { if (event.detail.target?.id === "final") setTimeout(showFinish, 0); });
