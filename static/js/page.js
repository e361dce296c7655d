/* Small things on every page, each also done without JavaScript or not needed there. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  function on(type, selector, handler) {
    document.addEventListener(type, function (event) {
      var el = event.target.closest && event.target.closest(selector);
      if (el) handler(el, event);
    });
  }
  on("click", "[data-speak]", function (button) {  // the announcement read aloud, in the page's language
    if (!("speechSynthesis" in window)) return;
    var utterance = new SpeechSynthesisUtterance(button.dataset.speak);
    utterance.lang = document.documentElement.lang || "en";
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
  });
  on("click", "[data-copy]", function (button) {  // copy a share link
    var input = document.querySelector(button.dataset.copy);
    if (!input) return;
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(function () {});
  });
  on("change", "select[data-autosubmit]", function (select) { select.form.submit(); });  // the language
  on("input", "#new-game input[name=player]", function (input) {  // the dealer list follows the names
    var option = document.querySelector('#dealer option[value="' + input.id.replace("player-", "") + '"]');
    if (option && input.value.trim()) option.textContent = input.value.trim();
  });
  // The scoreboard's running totals, on demand, in place (a link without JavaScript); a live
  // update keeps the choice.
  var running = false;
  function showRunning() {
    var wrap = document.querySelector("#scoreboard .board-wrap");
    var toggle = document.querySelector("[data-toggle-running]");
    if (wrap) wrap.classList.toggle("show-running", running);
    if (toggle) toggle.setAttribute("aria-pressed", running ? "true" : "false");
  }
  on("click", "[data-toggle-running]", function (toggle, event) {
    event.preventDefault();
    running = !running;
    showRunning();
  });
  htmx.onLoad(function () { if (running) showRunning(); });
  // Over plain http (a LAN address) the phone cannot install the app or keep it offline: said
  // once, plainly, on the table page.
  document.addEventListener("DOMContentLoaded", function () {
    var note = document.getElementById("insecure-note");
    if (!note || window.isSecureContext) return;
    try {
      if (localStorage.getItem("insecure-note-seen")) return;
      localStorage.setItem("insecure-note-seen", "1");
    } catch (e) { /* private mode: said each time */ }
    note.hidden = false;
  });
  // Installable and offline-aware: the service worker keeps the shell, the rules and the games seen here.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
    document.addEventListener("htmx:afterSettle", function () {
      if (navigator.serviceWorker.controller && document.getElementById("table-body")) {
        navigator.serviceWorker.controller.postMessage({ refresh: location.pathname });
      }
    });
  }
})();
