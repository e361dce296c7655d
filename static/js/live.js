/* The table follows its game. htmx's SSE extension holds the game's change stream open
   (sse-connect on #table-body) and the #poller fetches what changed at each event
   (hx-trigger="sse:change", 304 when nothing did), one fetch at a time (hx-sync="this:queue last").
   An idle page sends nothing. This file adds what the extension does not: the answer's ETag for
   the next fetch, a fetch every 5 s where no stream opens (a buffering proxy, a WSGI server's
   204), and healing after a network blip. */
(function () {
  "use strict";
  var streamOpen = false;
  var retryDelay = 1000;
  var retryTimer = null;

  function fetchChanges() {
    // The table's #poller; a club night's page and a room screen mark theirs data-live-poller.
    document.querySelectorAll("#poller, [data-live-poller]").forEach(function (poller) {
      htmx.trigger(poller, "changed");
    });
  }
  function streaming(open) { streamOpen = open; document.body.classList.toggle("streaming", open); }
  document.addEventListener("htmx:sseOpen", function () { streaming(true); });
  document.addEventListener("htmx:sseError", function () { streaming(false); });
  window.setInterval(function () { if (!streamOpen) fetchChanges(); }, 5000);

  // A fetch that failed (no network, a server away) is tried again after 1, 2, 4... up to 30 s,
  // and at once when the network comes back or the phone shows the page again; meanwhile a
  // quiet mark says the page may be behind.
  function retryLater() {
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
  window.addEventListener("online", function () { healed(); fetchChanges(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") fetchChanges();
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt && event.detail.elt.id === "poller") retryLater();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var poller = event.detail.elt;
    if (!poller || poller.id !== "poller") return;
    var xhr = event.detail.xhr;
    if (!event.detail.successful && (!xhr || xhr.status !== 304)) { retryLater(); return; }
    healed();
    var etag = xhr && xhr.getResponseHeader("ETag");
    if (etag) poller.setAttribute("hx-headers", JSON.stringify({ "If-None-Match": etag }));
  });

  // The fetch says whether the entry may be replaced (nothing typed in it) and which version it
  // was typed on; a tap made while the answer was on its way keeps the entry it was made in.
  function entryForm() { return document.querySelector("form[data-entry]"); }
  document.addEventListener("htmx:configRequest", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "poller") return;
    var form = entryForm();
    var version = form && form.querySelector("input[name=version]");
    event.detail.headers["X-Entry-Pristine"] = event.detail.elt.dataset.askedPristine = form && form.dataset.dirty ? "0" : "1";
    if (version) event.detail.headers["X-Entry-Version"] = version.value;
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var poller = document.getElementById("poller");
    var form = entryForm();
    if (event.detail.target && event.detail.target.id === "entry-slot" && poller &&
        poller.dataset.askedPristine === "1" && form && form.dataset.dirty) event.detail.shouldSwap = false;
  });

  // A fetch whose #poller was replaced meanwhile (this phone's own answer brought a new table: a
  // seat taken, a round recorded) was asked as the phone was before: its answer is dropped, its
  // out-of-band parts too, and the changes are fetched again. The check sits on the poller
  // itself, because the events of an element that left the page no longer reach the document.
  htmx.onLoad(function (root) {
    var poller = root.id === "poller" ? root : root.querySelector && root.querySelector("#poller");
    if (!poller) return;
    poller.addEventListener("htmx:beforeSwap", function (event) {
      if (poller.isConnected) return;
      event.detail.shouldSwap = false;
      window.setTimeout(fetchChanges, 0);
    });
  });
})();
