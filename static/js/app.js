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
      advanceWhenFull(form, active.value);
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

  // The player whose hand the keypad fills is outlined. With a round in progress the button
  // sends in that player's hand, and says whose; a hand another phone sent in is replaced only
  // by a button that says so (the server asks for it too).
  function markActive(form) {
    var active = form.querySelector("input[name=active]:checked");
    Array.prototype.forEach.call(form.querySelectorAll(".player-entry"), function (block) {
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
  // Record or Send comes on its own after an event while a hand is typed: it names the hand chosen here.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var form = event.detail.target && event.detail.target.id === "record-action" && event.detail.target.closest("form");
    if (form) markActive(form);
  });
  // Points mode with a round in progress: the field typed in says whose hand is sent in.
  document.addEventListener("focusin", function (event) {
    var field = event.target.closest && event.target.closest("form[data-draft] .points-input");
    var block = field && field.closest(".player-entry");
    var radio = block && field.form.querySelector('input[name=active][value="' + block.dataset.seat + '"]');
    if (radio && !radio.checked) { radio.checked = true; markActive(field.form); }
  });
  document.addEventListener("change", function (event) {
    var radio = event.target.closest("form[data-entry] input[name=active]");
    if (radio) markActive(radio.form);
  });

  // A player who went out holds no cards: move the keypad on to the next player. In points mode
  // the first empty field of a player who did not go out takes the focus (the number keyboard opens).
  function winnerSeat(form) {
    var winner = form.querySelector("input[name=winner]:checked");
    return winner ? winner.value : null;
  }
  document.addEventListener("change", function (event) {
    var winner = event.target.closest("form[data-entry] input[name=winner]");
    if (!winner) return;
    var form = winner.form;
    Array.prototype.forEach.call(form.querySelectorAll(".player-entry"), function (block) {
      block.classList.toggle("out", block.dataset.seat === winner.value);
    });
    // Who went out holds no cards: not offered to tap for (the server renders it so too).
    Array.prototype.forEach.call(form.querySelectorAll("input[name=active]"), function (radio) {
      radio.disabled = radio.value === winner.value;
      radio.closest("label").hidden = radio.disabled;
    });
    var active = form.querySelector("input[name=active]:checked");
    if (active && active.value === winner.value) {
      var next = Array.prototype.find.call(form.querySelectorAll("input[name=active]"), function (r) {
        return r.value !== winner.value;
      });
      if (next) { next.checked = true; markActive(form); }
    }
    if (mode(form) === "points") nextPoints(form, null);
  });

  // Where the round fixes a hand's size (Mexican round 7), a full hand moves the keypad on to the
  // next player still to enter: the server says how many cards each hand holds (data-holds).
  function handCount(form, seat) {
    var input = form.querySelector("#hand-" + seat);
    return input ? tokens(input).length : 0;
  }
  function advanceWhenFull(form, seat) {
    if (form.hasAttribute("data-draft")) return;  // each hand is sent in on its own: stay on it
    var result = form.querySelector("#result-" + seat);
    var holds = result && Number(result.dataset.holds);
    if (!holds || handCount(form, seat) < holds) return;
    var radios = Array.prototype.slice.call(form.querySelectorAll("input[name=active]"));
    var at = radios.findIndex(function (r) { return r.value === seat; });
    var out = winnerSeat(form);
    for (var step = 1; step < radios.length; step++) {
      var radio = radios[(at + step) % radios.length];
      var other = form.querySelector("#result-" + radio.value);
      var room = other && other.dataset.holds ? handCount(form, radio.value) < Number(other.dataset.holds) : !handCount(form, radio.value);
      if (radio.value !== out && room) { radio.checked = true; markActive(form); return; }
    }
  }

  // Card mode (the keypad, one hand at a time) or points mode (a number field per player), one tap
  // apart; the phone remembers the choice for the next rounds.
  function mode(form) {
    var entry = form.closest(".entry");
    return entry ? entry.dataset.mode : "cards";
  }
  function applyMode(value) {
    var entry = document.getElementById("entry");
    var toggle = entry && entry.querySelector("[data-entry-mode]");
    if (!entry || !toggle) return;
    entry.dataset.mode = value === "points" ? "points" : "cards";
    toggle.setAttribute("aria-pressed", value === "points" ? "true" : "false");
  }
  function storedMode() {
    try { return localStorage.getItem("entry-mode") || "cards"; } catch (e) { return "cards"; }
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest("[data-entry-mode]");
    if (!toggle) return;
    var value = toggle.getAttribute("aria-pressed") === "true" ? "cards" : "points";
    try { localStorage.setItem("entry-mode", value); } catch (e) { /* private mode */ }
    applyMode(value);
    var form = document.querySelector("form[data-entry]");
    if (value === "points" && form && winnerSeat(form)) nextPoints(form, null);
  });
  document.addEventListener("DOMContentLoaded", function () { applyMode(storedMode()); });
  document.addEventListener("htmx:afterSettle", function () { applyMode(storedMode()); });
  function nextPoints(form, after) {
    var out = winnerSeat(form);
    var fields = Array.prototype.slice.call(form.querySelectorAll(".points-input")).filter(function (f) {
      return f.closest(".player-entry").dataset.seat !== out;
    });
    var start = after ? fields.indexOf(after) + 1 : 0;
    var next = fields.slice(start).find(function (f) { return !f.value.trim(); });
    if (next) next.focus();
    return next;
  }
  // Enter ("Next" on a phone's number keyboard) goes on to the next empty field; after the last, Record.
  document.addEventListener("keydown", function (event) {
    var field = event.target.closest && event.target.closest("form[data-entry] .points-input");
    if (!field || event.key !== "Enter") return;
    if (nextPoints(field.form, field)) event.preventDefault();
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

  // Keep the screen awake while the table page is open: the Wake Lock API where there is one (a
  // secure context), else (plain http on the LAN) a muted, looping, inline video of a second,
  // started by the first tap, as NoSleep.js does; either is taken up again when the page is back.
  var lock = null;
  var video = null;
  function wakeSpot() { return document.querySelector("[data-wake]"); }
  function wake() {
    var spot = wakeSpot();
    if (!spot || document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator) {
      navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
    } else if (video) {
      video.play().catch(function () {});
    }
  }
  function wakeByVideo() {
    var spot = wakeSpot();
    if (!spot || "wakeLock" in navigator || video) return;
    video = document.createElement("video");
    video.className = "wake-video";
    video.muted = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("loop", "");
    video.setAttribute("aria-hidden", "true");
    video.setAttribute("tabindex", "-1");
    [["webm", "video/webm"], ["mp4", "video/mp4"]].forEach(function (pair) {
      var source = document.createElement("source");
      source.src = spot.dataset["wake" + pair[0].charAt(0).toUpperCase() + pair[0].slice(1)];
      source.type = pair[1];
      video.appendChild(source);
    });
    document.body.appendChild(video);
    video.play().catch(function () { video.remove(); video = null; });  // the next tap tries again
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);
  document.addEventListener("pointerup", wakeByVideo, true);
  document.addEventListener("keyup", wakeByVideo, true);

  // Over plain http (a LAN address) the phone cannot install the app or keep it offline: say so
  // once, plainly, on the table page.
  document.addEventListener("DOMContentLoaded", function () {
    var note = document.getElementById("insecure-note");
    if (!note || window.isSecureContext) return;
    try {
      if (localStorage.getItem("insecure-note-seen")) return;
      localStorage.setItem("insecure-note-seen", "1");
    } catch (e) { /* private mode: say it each time */ }
    note.hidden = false;
  });

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
  // A round in progress is kept on the server instead (each hand as it is typed).
  function saveDraft(form) {
    if (form.hasAttribute("data-draft")) return;
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
    if (!form || form.dataset.dirty || form.hasAttribute("data-draft")) return;
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
  // view and focused (a screen reader reads it).
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !config.elt || !config.elt.matches || !config.elt.matches("form[data-entry]")) return;
    var error = document.querySelector("#entry-errors[data-refused] li, #entry .error");
    if (!error) return;
    error.setAttribute("tabindex", "-1");
    error.scrollIntoView({ block: "center" });
    error.focus({ preventScroll: true });
  });
  // Once the form changes, its previews are checked as Record would check it (the refusal's
  // hidden field says so): the list then shrinks as each thing is fixed and goes when all are.
  // A preview sent before the refusal answers without that mark and leaves the list alone.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fresh = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (target && target.id === "entry-errors" && target.hasAttribute("data-refused") &&
        !(fresh && fresh.hasAttribute("data-rechecked"))) event.detail.shouldSwap = false;
  });

  // After Record, undo or redo the entry stays where it was on the screen, whatever the
  // announcement above it now says; a notice goes away at the next tap elsewhere.
  var entryTop = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var entry = document.getElementById("entry");
    var target = event.detail.target;
    entryTop = entry && target && target.id === "table-body" ? entry.getBoundingClientRect().top : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var entry = document.getElementById("entry");
    if (entryTop === null || !entry || !event.detail.target || event.detail.target.id !== "table-body") return;
    if (document.querySelector("#entry-errors[data-refused] li, #entry .error")) return;  // the error is brought into view
    window.scrollBy(0, entry.getBoundingClientRect().top - entryTop);
    entryTop = null;
  });
  // The notice covers no control: the Record bar makes room for it at its top (the bar grows,
  // and where it is stuck to the bottom of the screen the page moves up by as much, so the
  // keypad and the hand stay in view above it), and the notice sits in that room. The room stays
  // until the bar is drawn anew (the next Record), so nothing moves when the notice goes.
  function placeToast() {
    var toast = document.getElementById("toast");
    var bar = document.querySelector("#entry .record-bar");
    if (!toast || !toast.firstChild) return;
    var height = window.innerHeight;
    if (!bar || bar.getBoundingClientRect().top < height / 4 || bar.getBoundingClientRect().top > height) {
      toast.style.bottom = "";  // no bar on the screen: the bottom of the screen (nothing to record there)
      return;
    }
    if (!bar.dataset.noticeRoom) {
      var room = toast.offsetHeight + 8;
      var before = bar.getBoundingClientRect().top;
      bar.style.paddingTop = room + "px";
      bar.dataset.noticeRoom = String(room);
      var grewUp = before - bar.getBoundingClientRect().top;
      if (grewUp > 0) window.scrollBy(0, grewUp);
    }
    toast.style.bottom = (height - bar.getBoundingClientRect().top - Number(bar.dataset.noticeRoom) + 4) + "px";
  }
  // The hand being entered and its points stay in view above the Record bar where the bar is
  // stuck to the bottom of the screen: after anything new came in, the page moves up if they would
  // sit under it.
  function keepHandInView() {
    var bar = document.querySelector("#entry .record-bar");
    var hand = document.querySelector("#entry .player-entry.active .result");
    if (!bar || !hand || !hand.offsetParent) return;
    var barTop = bar.getBoundingClientRect().top;
    var under = hand.getBoundingClientRect().bottom - barTop;
    var stuck = bar.getBoundingClientRect().bottom >= window.innerHeight - 1;
    if (under > 0 && stuck && barTop > window.innerHeight / 4) window.scrollBy(0, under + 4);
  }
  function placeAll() { placeToast(); keepHandInView(); placeToast(); }
  // The hand is brought into view only when an entry came by push (another phone's step): after
  // this phone's own Record the page stays put, and after a tap's preview nothing may move the
  // keypad under the thumb.
  document.addEventListener("htmx:afterSettle", placeToast);
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "entry-slot") window.setTimeout(placeAll, 0);
  });
  document.addEventListener("DOMContentLoaded", placeToast);
  window.addEventListener("scroll", placeToast, { passive: true });
  // When the notice goes, a Record bar stuck to the bottom of the screen gives its room back
  // (its buttons stay where they are; the hand under the room comes into view). A bar in its
  // place in the page keeps the room, so its buttons do not move under the thumb.
  document.addEventListener("click", function (event) {
    var toast = document.getElementById("toast");
    if (!toast || !toast.firstChild || event.target.closest("#toast")) return;
    toast.textContent = "";
    var bar = document.querySelector("#entry .record-bar");
    if (bar && bar.dataset.noticeRoom && bar.getBoundingClientRect().bottom >= window.innerHeight - 1) {
      bar.style.paddingTop = "";
      delete bar.dataset.noticeRoom;
    }
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

  // A preview never crosses a Record: none is sent while the form is being recorded, and one
  // that answers after its form was replaced (the round was recorded) is dropped, its
  // out-of-band parts too. The check sits on the preview element itself, because the events of
  // an element that has left the page no longer reach the document.
  function guardPreviews() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-preview]:not([data-guarded])"), function (el) {
      el.setAttribute("data-guarded", "");
      el.addEventListener("htmx:beforeSwap", function (event) {
        if (!el.isConnected) event.detail.shouldSwap = false;
      });
    });
  }
  document.addEventListener("DOMContentLoaded", guardPreviews);
  document.addEventListener("htmx:afterSettle", guardPreviews);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var el = event.detail.elt;
    var form = el && el.matches && el.matches("[data-preview]") && el.closest("form");
    if (form && (form.classList.contains("htmx-request") || !el.isConnected)) event.preventDefault();
  });

  // Live updates by push: the page listens to the game's change stream and, on a change,
  // fetches what changed (the #poller's request: 304 when nothing did). An idle page sends
  // nothing. Where the stream cannot be opened (a buffering proxy, an old browser, a WSGI
  // server answering 204) the page asks every 5 s instead, and says nothing about it.
  // One fetch at a time; a change told meanwhile is fetched right after it. The answer's ETag
  // (the version it shows) is what the next fetch sends as If-None-Match; the #poller itself
  // is replaced only with the whole table (after Record, Undo), which then brings its own.
  var streamOpen = false;
  var fetchingFrom = null;
  var again = false;
  function fetchChanges() {
    var poller = document.getElementById("poller");
    if (!poller || !window.htmx) return;
    if (fetchingFrom && document.body.contains(fetchingFrom)) { again = true; return; }
    fetchingFrom = null;
    again = false;
    window.htmx.trigger(poller, "changed");
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt && event.detail.elt.id === "poller") fetchingFrom = event.detail.elt;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var poller = event.detail.elt;
    if (!poller || poller.id !== "poller") return;
    fetchingFrom = null;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!event.detail.successful && status !== 304) { retryLater(); return; }
    healed();
    var etag = event.detail.xhr && event.detail.xhr.getResponseHeader("ETag");
    if (etag) poller.setAttribute("hx-headers", JSON.stringify({ "If-None-Match": etag }));
    if (again) window.setTimeout(fetchChanges, 0);
  });
  // A page that may be behind heals itself: a fetch that failed (no network, a server away) is
  // tried again after 1, 2, 4... up to 30 s, and at once when the network comes back or the
  // phone shows the page again; meanwhile a quiet mark says the page may be stale.
  var retryDelay = 1000;
  var retryTimer = null;
  function retryLater() {
    fetchingFrom = null;
    document.body.classList.add("stale");
    if (retryTimer) return;
    retryTimer = window.setTimeout(function () { retryTimer = null; fetchChanges(); }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30000);
  }
  function healed() {
    retryDelay = 1000;
    if (retryTimer) { window.clearTimeout(retryTimer); retryTimer = null; }
    document.body.classList.remove("stale");
  }
  document.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt && event.detail.elt.id === "poller") retryLater();
  });
  window.addEventListener("online", function () { healed(); fetchChanges(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") fetchChanges();
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (again && !fetchingFrom) window.setTimeout(fetchChanges, 0);  // a new table came meanwhile
  });
  // A fetch whose #poller was replaced meanwhile (this phone's own answer brought a new table:
  // a seat taken, a round recorded) was asked as the phone was before, with its old session;
  // its answer is dropped, out-of-band parts too, and the changes are fetched again. As with
  // previews, the check sits on the poller itself: a detached element's events stay there.
  function guardPoller() {
    var poller = document.getElementById("poller");
    if (!poller || poller.hasAttribute("data-guarded")) return;
    poller.setAttribute("data-guarded", "");
    poller.addEventListener("htmx:beforeSwap", function (event) {
      if (poller.isConnected) return;
      event.detail.shouldSwap = false;
      if (fetchingFrom === poller) fetchingFrom = null;
      window.setTimeout(fetchChanges, 0);
    });
  }
  document.addEventListener("DOMContentLoaded", guardPoller);
  document.addEventListener("htmx:afterSettle", guardPoller);
  function listen() {
    var poller = document.getElementById("poller");
    if (!poller || !poller.dataset.events) return;
    if ("EventSource" in window) {
      var source = null;
      var reopenDelay = 1000;
      var open = function () {
        source = new EventSource(poller.dataset.events);
        source.addEventListener("open", function () { streamOpen = true; reopenDelay = 1000; });
        source.addEventListener("change", fetchChanges);
        source.addEventListener("error", function () {
          streamOpen = false;
          if (source.readyState === EventSource.CLOSED) {  // refused (a cap, a server away): open it again later
            window.setTimeout(open, reopenDelay);
            reopenDelay = Math.min(reopenDelay * 2, 60000);
          }
        });
      };
      open();
      window.addEventListener("pagehide", function () { if (source) source.close(); });
    }
    window.setInterval(function () { if (!streamOpen) fetchChanges(); }, 5000);
  }
  document.addEventListener("DOMContentLoaded", listen);

  // The live fetch tells the server whether the entry may be replaced (nothing typed in it).
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt && event.detail.elt.id === "poller") {
      var form = entryForm();
      event.detail.headers["X-Entry-Pristine"] = form && form.dataset.dirty ? "0" : "1";
      event.detail.elt.dataset.askedPristine = event.detail.headers["X-Entry-Pristine"];
      var version = form && form.querySelector("input[name=version]");
      if (version) event.detail.headers["X-Entry-Version"] = version.value;
    }
  });

  // A tap made while that fetch was on its way makes the entry no longer blank: the fresh entry
  // the answer brings (asked for as blank) would wipe the card just tapped, so it is not put in.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var poller = document.getElementById("poller");
    var form = entryForm();
    if (event.detail.target && event.detail.target.id === "entry-slot" && poller &&
        poller.dataset.askedPristine === "1" && form && form.dataset.dirty) event.detail.shouldSwap = false;
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
