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
      var radio = form.querySelector('input[name=active][value="' + entry.dataset.seat + '"]');
      if (radio) { radio.checked = true; markActive(form); }
    }
  });

  // The player whose hand the keypad fills is outlined.
  function markActive(form) {
    var active = form.querySelector("input[name=active]:checked");
    Array.prototype.forEach.call(form.querySelectorAll(".player-entry"), function (block) {
      block.classList.toggle("active", !!active && block.dataset.seat === active.value);
    });
  }
  document.addEventListener("change", function (event) {
    var radio = event.target.closest("form[data-entry] input[name=active]");
    if (radio) markActive(radio.form);
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
      if (next) { next.checked = true; markActive(form); }
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
  });

  // Keep the screen awake while the table page is open.
  var lock = null;
  function wake() {
    if (!document.querySelector("[data-wake]") || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);

  // The language chooser changes the language as soon as one is chosen.
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select) select.form.submit();
  });

  // Copy a share link.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.dataset.copy);
    if (!input) return;
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(function () {});
  });

  // What is typed into the round entry is kept on the phone until the round is saved:
  // a lost network, a reload or a closed tab loses nothing.
  function entryForm() { return document.querySelector("form[data-entry]"); }
  function draftKey(form) {
    var number = form.elements.number ? form.elements.number.value : "";
    return "draft:" + form.getAttribute("action") + ":" + number;
  }
  function saveDraft(form) {
    var data = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") return;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) return;
      data[el.name] = el.value;
    });
    try { localStorage.setItem(draftKey(form), JSON.stringify(data)); } catch (e) { /* private mode */ }
  }
  function restoreDraft() {
    var form = entryForm();
    if (!form || form.dataset.dirty) return;
    var raw = null;
    try { raw = localStorage.getItem(draftKey(form)); } catch (e) { return; }
    if (!raw) return;
    var data = JSON.parse(raw);
    Object.keys(data).forEach(function (name) {
      Array.prototype.forEach.call(form.querySelectorAll('[name="' + name + '"]'), function (el) {
        if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === data[name] || data[name] === "on";
        else el.value = data[name];
      });
    });
    form.dataset.dirty = "1";
    var first = form.querySelector(".hand-input");
    if (first) changed(first);
  }
  function clearDrafts() {
    try {
      Object.keys(localStorage).forEach(function (k) { if (k.indexOf("draft:") === 0) localStorage.removeItem(k); });
    } catch (e) { /* private mode */ }
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest("form[data-entry]");
    if (form) { form.dataset.dirty = "1"; saveDraft(form); }
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-entry]");
    if (form) { form.dataset.dirty = "1"; saveDraft(form); }
  });
  document.addEventListener("DOMContentLoaded", restoreDraft);
  document.addEventListener("htmx:afterSettle", restoreDraft);
  document.body.addEventListener("roundSaved", clearDrafts);

  // The scoreboard's running totals, on demand, in place (the link works without JavaScript).
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest("[data-toggle-running]");
    if (!toggle) return;
    event.preventDefault();
    var wrap = document.querySelector("#scoreboard .board-wrap");
    if (!wrap) return;
    runningOn = wrap.classList.toggle("show-running");
    toggle.setAttribute("aria-pressed", runningOn ? "true" : "false");
  });
  var runningOn = false;
  document.addEventListener("htmx:afterSettle", function () {  // a live update keeps the choice
    var wrap = document.querySelector("#scoreboard .board-wrap");
    var toggle = document.querySelector("[data-toggle-running]");
    if (!runningOn || !wrap || !toggle) return;
    wrap.classList.add("show-running");
    toggle.setAttribute("aria-pressed", "true");
  });

  // Buys go up and down with the steppers beside each name (no typing); the preview follows.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    event.preventDefault();
    var input = document.getElementById(button.dataset.for);
    if (!input) return;
    input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10)));
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // A refused Record keeps its place: the page does not move, the first error is brought into
  // view and focused (a screen reader reads it), and no preview clears what Record said.
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !config.elt || !config.elt.matches || !config.elt.matches("form[data-entry]")) return;
    var error = document.querySelector("#entry-errors[data-refused] li, #entry .error");
    if (!error) return;
    error.setAttribute("tabindex", "-1");
    error.scrollIntoView({ block: "center" });
    error.focus({ preventScroll: true });
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "entry-errors" && target.hasAttribute("data-refused")) event.detail.shouldSwap = false;
  });

  // After a round is saved the page stays where it is; the second tap of a double tap on
  // Record (the same spot, moments later) lands on the next round's entry and is ignored.
  var recordTap = null;
  document.addEventListener("click", function (event) {
    var near = recordTap && Math.abs(event.clientX - recordTap.x) < 40 && Math.abs(event.clientY - recordTap.y) < 40;
    if (near && Date.now() - recordTap.at < 500) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    recordTap = null;  // any other tap in between ends the double tap
    if (event.target.closest && event.target.closest("form[data-entry] button.primary")) {
      recordTap = { x: event.clientX, y: event.clientY, at: Date.now() };
    }
  }, true);

  // A preview that answers after its form was replaced (the round was recorded) is dropped,
  // so previews never need aborting (htmx logs every abort as an error).
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt && !event.detail.elt.isConnected) event.detail.shouldSwap = false;
  });

  // The live poll tells the server whether the entry may be replaced (nothing typed in it).
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt && event.detail.elt.id === "poller") {
      var form = entryForm();
      event.detail.headers["X-Entry-Pristine"] = form && form.dataset.dirty ? "0" : "1";
    }
  });

  // Say plainly when the network is gone; send the round again when it is back.
  var pending = null;
  function banner() {
    var existing = document.getElementById("offline");
    if (navigator.onLine && !pending) { if (existing) existing.remove(); return; }
    if (!existing) {
      existing = document.createElement("div");
      existing.id = "offline";
      existing.className = "offline-banner";
      existing.setAttribute("role", "alert");
      document.body.prepend(existing);
    }
    var texts = document.body.dataset;
    existing.textContent = (pending ? texts.unsentText : texts.offlineText) + " ";
    if (pending) {
      var again = document.createElement("button");
      again.type = "button";
      again.textContent = texts.resendText;
      again.addEventListener("click", resend);
      existing.appendChild(again);
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
  // Installable and offline-aware: the service worker keeps the shell, the rules and the games seen here.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
    document.addEventListener("htmx:afterSettle", function () {
      if (navigator.serviceWorker.controller && document.getElementById("table-body")) {
        navigator.serviceWorker.controller.postMessage({ refresh: location.pathname });
      }
    });
  }

  window.addEventListener("offline", banner);
  window.addEventListener("online", function () { if (pending) resend(); else banner(); });
  document.addEventListener("DOMContentLoaded", banner);
})();
