/* The round entry at once in the browser: the keypad and the chips (the same keys the server
   carries out without JavaScript, referee/keypad.py), whose hand is tapped, card or points mode,
   and the typing kept on the phone until the round is saved. The penalty shown is the server's
   preview. */
(function () {
  "use strict";
  function each(root, selector, fn) { Array.prototype.forEach.call(root.querySelectorAll(selector), fn); }
  function tokens(input) { return input.value.trim() ? input.value.trim().split(/[\s,;]+/) : []; }
  function changed(input) { input.dispatchEvent(new Event("input", { bubbles: true })); }
  function checked(form, name) { return form.querySelector("input[name=" + name + "]:checked"); }
  function radioFor(form, seat) { return form.querySelector('input[name=active][value="' + seat + '"]'); }
  function on(type, selector, handler) {
    document.addEventListener(type, function (event) {
      var el = event.target.closest && event.target.closest(selector);
      if (el) handler(el, event);
    });
  }

  document.addEventListener("click", function (event) {
    var form = event.target.closest("form[data-entry]");
    if (!form) return;
    var key = event.target.closest("[data-tap]");
    var chip = event.target.closest("[data-untap]");
    var block = event.target.closest(".player-entry");
    if (key) {  // a card into the active hand
      event.preventDefault();
      var active = checked(form, "active");
      var input = active && form.querySelector("#hand-" + active.value);
      if (!input) return;
      input.value = tokens(input).concat([key.dataset.tap]).join(" ");
      changed(input);
      advanceWhenFull(form, active.value);
    } else if (chip) {  // a card out of a hand
      event.preventDefault();
      var hand = form.querySelector("#hand-" + chip.closest("[data-seat]").dataset.seat);
      if (!hand) return;
      var list = tokens(hand);
      list.splice(Number(chip.dataset.untap), 1);
      hand.value = list.join(" ");
      chip.remove();
      changed(hand);
    } else if (block && !event.target.closest("input, button, label")) {
      var radio = radioFor(form, block.dataset.seat);
      if (radio) { radio.checked = true; markActive(form); }
    }
  });

  // The hand the keypad fills is outlined. With a round in progress the button sends in that
  // player's hand and says whose; a hand another phone sent in is replaced only by a button
  // that says so (the server asks for it too).
  function markActive(form) {
    var active = checked(form, "active");
    each(form, ".player-entry", function (block) {
      block.classList.toggle("active", !!active && block.dataset.seat === active.value);
    });
    var send = form.querySelector("[data-send-hand]");
    var block = active && form.querySelector('.player-entry[data-seat="' + active.value + '"]');
    var name = block && block.querySelector(".player-name");
    if (!send || !name) return;
    var replaces = block.hasAttribute("data-replaces");
    send.value = replaces ? "replace" : "hand";
    send.textContent = (replaces ? send.dataset.replaceHand : send.dataset.sendHand).replace("{name}", name.textContent.trim());
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {  // Record or Send came alone after an event
    var form = event.detail.target && event.detail.target.id === "record-action" && event.detail.target.closest("form");
    if (form) markActive(form);
  });
  // Another phone's step brings the bar again; when it is the same bar (its versions aside) it is
  // not drawn anew, so a thumb already on Send or Record never loses its tap to the button's twin.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (!target || target.id !== "record-action" || !fragment) return;
    var now = target.cloneNode(true);
    var fresh = fragment.cloneNode(true);
    [now, fresh].forEach(function (el) {  // whose hand Send names is this phone's own choice (markActive)
      each(el, "[data-send-hand]", function (button) { button.textContent = ""; button.removeAttribute("value"); });
      each(el, "input[type=hidden]", function (input) { input.remove(); });
    });
    if (now.innerHTML !== fresh.innerHTML) return;
    event.detail.shouldSwap = false;
    each(target, "input[type=hidden]", function (input) { input.remove(); });
    each(fragment, "input[type=hidden]", function (input) { target.prepend(input.cloneNode()); });
  });
  on("focusin", "form[data-draft] .points-input", function (field) {  // points mode: the field typed in is whose hand
    var radio = radioFor(field.form, field.closest(".player-entry").dataset.seat);
    if (radio && !radio.checked) { radio.checked = true; markActive(field.form); }
  });
  on("change", "form[data-entry] input[name=active]", function (radio) { markActive(radio.form); });

  // Who went out holds no cards: not offered to tap for (the server renders it so too), and the
  // keypad moves on; in points mode the first empty field takes the focus (the number keyboard opens).
  on("change", "form[data-entry] input[name=winner]", function (winner) {
    var form = winner.form;
    each(form, ".player-entry", function (block) { block.classList.toggle("out", block.dataset.seat === winner.value); });
    each(form, "input[name=active]", function (radio) {
      radio.disabled = radio.value === winner.value;
      radio.closest("label").hidden = radio.disabled;
    });
    var active = checked(form, "active");
    var next = form.querySelector("input[name=active]:not(:disabled)");
    if (active && active.disabled && next) { next.checked = true; markActive(form); }
    if (mode() === "points") nextPoints(form, null);
  });

  // Where the round fixes a hand's size (Mexican round 7), a full hand moves the keypad on to the
  // next player still to enter: the server says how many cards each hand holds (data-holds).
  function count(form, seat) { var input = form.querySelector("#hand-" + seat); return input ? tokens(input).length : 0; }
  function advanceWhenFull(form, seat) {
    if (form.hasAttribute("data-draft")) return;  // each hand is sent in on its own: stay on it
    var holds = Number((form.querySelector("#result-" + seat) || { dataset: {} }).dataset.holds);
    if (!holds || count(form, seat) < holds) return;
    var radios = Array.prototype.slice.call(form.querySelectorAll("input[name=active]"));
    var at = radios.findIndex(function (r) { return r.value === seat; });
    var out = checked(form, "winner");
    for (var step = 1; step < radios.length; step++) {
      var radio = radios[(at + step) % radios.length];
      var other = Number((form.querySelector("#result-" + radio.value) || { dataset: {} }).dataset.holds);
      var room = other ? count(form, radio.value) < other : !count(form, radio.value);
      if ((!out || radio.value !== out.value) && room) { radio.checked = true; markActive(form); return; }
    }
  }

  // Card mode (the keypad) or points mode (a number field per player), one tap apart; the phone
  // remembers the choice. Enter ("Next" on a number keyboard) goes on to the next empty field.
  function stored() { try { return localStorage.getItem("entry-mode") || "cards"; } catch (e) { return "cards"; } }
  function mode() { var entry = document.getElementById("entry"); return entry ? entry.dataset.mode : "cards"; }
  function applyMode(value) {
    var entry = document.getElementById("entry");
    var toggle = entry && entry.querySelector("[data-entry-mode]");
    if (!toggle) return;
    entry.dataset.mode = value === "points" ? "points" : "cards";
    toggle.setAttribute("aria-pressed", value === "points" ? "true" : "false");
  }
  on("click", "[data-entry-mode]", function (toggle) {
    var value = toggle.getAttribute("aria-pressed") === "true" ? "cards" : "points";
    try { localStorage.setItem("entry-mode", value); } catch (e) { /* private mode */ }
    applyMode(value);
    var form = document.querySelector("form[data-entry]");
    if (value === "points" && form && checked(form, "winner")) nextPoints(form, null);
  });
  function nextPoints(form, after) {
    var out = checked(form, "winner");
    var fields = Array.prototype.filter.call(form.querySelectorAll(".points-input"), function (f) {
      return !out || f.closest(".player-entry").dataset.seat !== out.value;
    });
    var next = fields.slice(after ? fields.indexOf(after) + 1 : 0).find(function (f) { return !f.value.trim(); });
    if (next) next.focus();
    return next;
  }
  on("keydown", "form[data-entry] .points-input", function (field, event) {
    if (event.key === "Enter" && nextPoints(field.form, field)) event.preventDefault();
  });
  on("click", "[data-step]", function (button, event) {  // buys go up and down with the steppers
    event.preventDefault();
    var input = document.getElementById(button.dataset.for);
    if (!input) return;
    input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10)));
    changed(input);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // What is typed is kept on the phone until the round is saved: a lost network, a reload or a
  // closed tab loses nothing. A round in progress is kept on the server instead, hand by hand.
  function draftKey(form) { return "draft:" + form.getAttribute("action") + ":" + ((form.elements.number || {}).value || ""); }
  function keep(form) {
    form.dataset.dirty = "1";
    if (form.hasAttribute("data-draft")) return;
    var data = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || (/radio|checkbox/.test(el.type) && !el.checked)) return;
      data[el.name] = el.value;
    });
    try { localStorage.setItem(draftKey(form), JSON.stringify(data)); } catch (e) { /* private mode */ }
  }
  on("input", "form[data-entry]", keep);
  on("change", "form[data-entry]", keep);
  function restore() {
    var form = document.querySelector("form[data-entry]");
    if (!form || form.dataset.dirty || form.hasAttribute("data-draft")) return;
    var raw = null;
    try { raw = localStorage.getItem(draftKey(form)); } catch (e) { return; }
    if (!raw) return;
    var data = JSON.parse(raw);
    Object.keys(data).forEach(function (name) {
      each(form, '[name="' + name + '"]', function (el) {
        if (/radio|checkbox/.test(el.type)) el.checked = el.value === data[name] || data[name] === "on";
        else el.value = data[name];
      });
    });
    form.dataset.dirty = "1";
    var first = form.querySelector(".hand-input");
    if (first) changed(first);
  }
  htmx.onLoad(function () { applyMode(stored()); restore(); });
  document.body.addEventListener("roundSaved", function () {
    try {
      Object.keys(localStorage).forEach(function (k) { if (k.indexOf("draft:") === 0) localStorage.removeItem(k); });
    } catch (e) { /* private mode */ }
  });

  // A refused Record: the first error is brought into view and focused (a screen reader reads
  // it). Once the form changes its previews are checked as Record would check it (the refusal's
  // hidden field says so), and the list shrinks as each thing is fixed; a preview sent before
  // the refusal answers without that mark and leaves the list alone.
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    var error = elt && elt.matches && elt.matches("form[data-entry]") && document.querySelector("#entry-errors[data-refused] li, #entry .error");
    if (!error) return;
    error.setAttribute("tabindex", "-1");
    error.scrollIntoView({ block: "center" });
    error.focus({ preventScroll: true });
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fresh = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (target && target.id === "entry-errors" && target.hasAttribute("data-refused") &&
        !(fresh && fresh.hasAttribute("data-rechecked"))) event.detail.shouldSwap = false;
  });

  // A preview never crosses a Record: none is sent while the form is being recorded, and one that
  // answers after its form was replaced is dropped, out-of-band parts too (the check sits on the
  // preview itself: the events of an element that left the page no longer reach the document).
  htmx.onLoad(function (root) {
    each(root, "[data-preview]", function (el) {
      el.addEventListener("htmx:beforeSwap", function (event) { if (!el.isConnected) event.detail.shouldSwap = false; });
    });
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var el = event.detail.elt;
    var form = el && el.matches && el.matches("[data-preview]") && el.closest("form");
    if (form && (form.classList.contains("htmx-request") || !el.isConnected)) event.preventDefault();
  });
})();
