/* A double tap on Record records once: its second tap (the same spot, moments later) would land
   on the next round's entry, and is ignored there. */
let recordTap = null;
document.addEventListener("click", (event) => {
  const near = recordTap && Math.abs(event.clientX - recordTap.x) < 40 && Math.abs(event.clientY - recordTap.y) < 40;
  if (near && Date.now() - recordTap.at < 500) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  recordTap = null;  // any other tap in between ends the double tap
  if (event.target.closest?.("form[data-entry] button.primary")) recordTap = { x: event.clientX, y: event.clientY, at: Date.now() };
}, true);
