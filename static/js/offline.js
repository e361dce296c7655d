/* Say plainly when the network is gone; a round recorded meanwhile is kept and sent again when
   the network is back (or with the banner's button). */
(function () {
  "use strict";
  var pending = null;
  function banner() {
    var shown = document.getElementById("offline");
    if (navigator.onLine && !pending) { if (shown) shown.remove(); return; }
    if (!shown) {
      shown = document.createElement("div");
      shown.id = "offline";
      shown.className = "offline-banner";
      shown.setAttribute("role", "alert");
      document.body.prepend(shown);
    }
    var texts = document.body.dataset;
    shown.textContent = (pending ? texts.unsentText : texts.offlineText) + " ";
    if (pending) {
      var again = document.createElement("button");
      again.type = "button";
      again.textContent = texts.resendText;
      again.addEventListener("click", resend);
      shown.appendChild(again);
    }
  }
  function resend() {
    var form = pending;
    pending = null;
    banner();
    if (form && document.body.contains(form)) form.requestSubmit(form.querySelector("button.primary"));
  }
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form[data-entry]");
    if (form && event.detail.elt === form) pending = form;
    banner();
  });
  window.addEventListener("offline", banner);
  window.addEventListener("online", function () { if (pending) resend(); else banner(); });
  document.addEventListener("DOMContentLoaded", banner);
})();
