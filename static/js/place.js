/* Nothing moves under the thumb, and nothing covers what it taps next. */
(function () {
  "use strict";
  function bar() { return document.querySelector("#entry .record-bar"); }
  function stuck(el) { return el.getBoundingClientRect().bottom >= window.innerHeight - 1; }

  // After Record, undo or redo the entry stays where it was on the screen, whatever the
  // announcement above it now says (unless a refusal's error is brought into view).
  var entryTop = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var entry = document.getElementById("entry");
    entryTop = entry && event.detail.target && event.detail.target.id === "table-body" ? entry.getBoundingClientRect().top : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var entry = document.getElementById("entry");
    if (entryTop === null || !entry || !event.detail.target || event.detail.target.id !== "table-body") return;
    if (!document.querySelector("#entry-errors[data-refused] li, #entry .error")) window.scrollBy(0, entry.getBoundingClientRect().top - entryTop);
    entryTop = null;
  });

  // The notice ("Round 3 recorded. Undo") covers no control: the Record bar makes room for it at
  // its top (where the bar is stuck to the bottom of the screen the page moves up by as much, so
  // the keypad and the hand stay in view above it), and the notice sits in that room. The room
  // stays until the bar is drawn anew, so nothing moves when the notice goes.
  function placeNotice() {
    var toast = document.getElementById("toast");
    var record = bar();
    if (!toast || !toast.firstChild) return;
    var height = window.innerHeight;
    var top = record && record.getBoundingClientRect().top;
    if (!record || top < height / 4 || top > height) { toast.style.bottom = ""; return; }  // no bar on the screen
    if (!record.dataset.noticeRoom) {
      var room = toast.offsetHeight + 8;
      record.style.paddingTop = room + "px";
      record.dataset.noticeRoom = String(room);
      var grewUp = top - record.getBoundingClientRect().top;
      if (grewUp > 0) window.scrollBy(0, grewUp);
    }
    toast.style.bottom = (height - record.getBoundingClientRect().top - Number(record.dataset.noticeRoom) + 4) + "px";
  }
  // The hand being entered and its points stay in view above a Record bar stuck to the bottom of
  // the screen, when an entry came by push (another phone's step); after this phone's own taps
  // nothing moves the keypad.
  function keepHandInView() {
    var record = bar();
    var hand = document.querySelector("#entry .player-entry.active .result");
    if (!record || !hand || !hand.offsetParent) return;
    var barTop = record.getBoundingClientRect().top;
    var under = hand.getBoundingClientRect().bottom - barTop;
    if (under > 0 && stuck(record) && barTop > window.innerHeight / 4) window.scrollBy(0, under + 4);
  }
  document.addEventListener("htmx:afterSettle", placeNotice);
  document.addEventListener("DOMContentLoaded", placeNotice);
  window.addEventListener("scroll", placeNotice, { passive: true });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "entry-slot") {
      window.setTimeout(function () { placeNotice(); keepHandInView(); placeNotice(); }, 0);
    }
  });
  // The notice goes at the next tap elsewhere; a bar stuck to the bottom of the screen then gives
  // its room back (its buttons stay put; the hand under the room comes into view), a bar in its
  // place in the page keeps it.
  document.addEventListener("click", function (event) {
    var toast = document.getElementById("toast");
    if (!toast || !toast.firstChild || event.target.closest("#toast")) return;
    toast.textContent = "";
    var record = bar();
    if (record && record.dataset.noticeRoom && stuck(record)) {
      record.style.paddingTop = "";
      delete record.dataset.noticeRoom;
    }
  });
})();
