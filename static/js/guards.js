/* A double tap on Record records once: its second tap (the same spot, moments later) would land
   on the next round's entry, and is ignored there. From a tap on Record the page says so
   (data-double-tap on <html>) until the half second is over, never less: a test waiting for a
   person's next tap waits for exactly that (tests/browser/helpers.py, past_double_tap). */
const DOUBLE_TAP_MS = 500;
let recordTap = null;
let unmark = 0;
document.addEventListener("click", (event) => {
  const near = recordTap && Math.abs(event.clientX - recordTap.x) < 40 && Math.abs(event.clientY - recordTap.y) < 40;
  if (near && event.timeStamp - recordTap.at < DOUBLE_TAP_MS) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  recordTap = null;  // any other tap in between ends the double tap
  clearTimeout(unmark);
  delete document.documentElement.dataset.doubleTap;
  if (event.target.closest?.("form[data-entry] button.primary")) {
    recordTap = { x: event.clientX, y: event.clientY, at: event.timeStamp };
    document.documentElement.dataset.doubleTap = "";
    // A timer runs no sooner than asked, and the tap it is measured from came before it was set.
    unmark = setTimeout(() => delete document.documentElement.dataset.doubleTap, DOUBLE_TAP_MS);
  }
}, true);
