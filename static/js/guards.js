/* A double tap on Record records once: its second tap (the same spot, moments later) would land
   on the next round's entry, and is ignored there. While that half second lasts the page says so
   (data-double-tap on <html>, taken off when it ends), so that a test waiting for a person's next
   tap waits for exactly that. */
const DOUBLE_TAP_MS = 500;
let recordTap = null;
let ending = 0;
function arm(tap) {
  recordTap = tap;
  clearTimeout(ending);
  if (tap) {
    document.documentElement.dataset.doubleTap = "";
    ending = setTimeout(() => arm(null), DOUBLE_TAP_MS);
  } else {
    delete document.documentElement.dataset.doubleTap;
  }
}
document.addEventListener("click", (event) => {
  const near = recordTap && Math.abs(event.clientX - recordTap.x) < 40 && Math.abs(event.clientY - recordTap.y) < 40;
  if (near) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  // Any other tap in between ends the double tap; a tap on Record (or Send) starts one.
  const record = event.target.closest?.("form[data-entry] button.primary");
  arm(record ? { x: event.clientX, y: event.clientY } : null);
}, true);
