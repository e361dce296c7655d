/* Rummy referee: small enhancements over server-rendered pages that work without it. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function tokens(input) {
    return input.value.trim() ? input.value.trim().split(/[\s,;]+/) : [];
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // The score entry keeps taps on the phone: a lost network loses no card.
  document.addEventListener("click", function (event) {
    var form = event.target.closest("form[data-entry]");
    if (!form) return;
    var key = event.target.closest("[data-tap]");
    if (key) {
      event.preventDefault();
      var active = form.querySelector("input[name=active]:checked");
      if (!active) return;
      var input = form.querySelector("#hand-" + active.value);
      if (!input) return;
      input.value = tokens(input).concat([key.dataset.tap]).join(" ");
      changed(input);
      return;
    }
    var chip = event.target.closest("[data-untap]");
    if (chip) {
      event.preventDefault();
      var block = chip.closest("[data-seat]");
      var hand = block && form.querySelector("#hand-" + block.dataset.seat);
      if (!hand) return;
      var list = tokens(hand);
      list.splice(Number(chip.dataset.untap), 1);
      hand.value = list.join(" ");
      chip.remove();
      changed(hand);
      return;
    }
    var entry = event.target.closest(".player-entry");
    if (entry && !event.target.closest("input, button, label")) {
      var radio = entry.querySelector("input[name=active]");
      if (radio) radio.checked = true;
    }
  });

  // A player who went out holds no cards: move the keypad on to the next player.
  document.addEventListener("change", function (event) {
    var winner = event.target.closest("form[data-entry] input[name=winner]");
    if (!winner) return;
    var form = winner.form;
    var active = form.querySelector("input[name=active]:checked");
    if (active && active.value === winner.value) {
      var next = Array.prototype.find.call(form.querySelectorAll("input[name=active]"), function (r) {
        return r.value !== winner.value;
      });
      if (next) next.checked = true;
    }
  });

  // New game: the dealer list and the draw follow the names as they are typed.
  document.addEventListener("input", function (event) {
    var input = event.target.closest("#new-game input[name=player]");
    if (!input) return;
    var index = input.id.replace("player-", "");
    var option = document.querySelector('#dealer option[value="' + index + '"]');
    if (option && input.value.trim()) option.textContent = input.value.trim();
  });

  // Read the announcement aloud in the page's language.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-speak]");
    if (!button || !("speechSynthesis" in window)) return;
    var utterance = new SpeechSynthesisUtterance(button.dataset.speak);
    utterance.lang = document.documentElement.lang || "en";
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
    window.lastUtterance = { text: utterance.text, lang: utterance.lang };
  });

  // Keep the screen awake while the table page is open.
  var lock = null;
  function wake() {
    if (!document.querySelector("[data-wake]") || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);

  // Say plainly when the network is gone; what was typed stays in the form.
  function banner() {
    var existing = document.getElementById("offline");
    if (navigator.onLine) { if (existing) existing.remove(); return; }
    if (existing) return;
    var div = document.createElement("div");
    div.id = "offline";
    div.className = "offline-banner";
    div.setAttribute("role", "alert");
    div.textContent = document.body.dataset.offlineText || "No network. What you typed is kept; send it again when the network is back.";
    document.body.prepend(div);
  }
  window.addEventListener("offline", banner);
  window.addEventListener("online", banner);
  document.addEventListener("DOMContentLoaded", banner);
})();
