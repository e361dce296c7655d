/* The screen stays awake while the table page is open: the Wake Lock API where there is one (a
   secure context), else (plain http on the LAN) a muted, looping, inline video of a second,
   started by the first tap, as NoSleep.js does; either is taken up again when the page is back. */
(function () {
  "use strict";
  var video = null;
  function spot() { return document.querySelector("[data-wake]"); }
  function wake() {
    if (!spot() || document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator) navigator.wakeLock.request("screen").catch(function () {});
    else if (video) video.play().catch(function () {});
  }
  function wakeByVideo() {
    var where = spot();
    if (!where || "wakeLock" in navigator || video) return;
    video = document.createElement("video");
    video.className = "wake-video";
    video.muted = true;
    ["muted", "playsinline", "loop"].forEach(function (name) { video.setAttribute(name, ""); });
    video.setAttribute("aria-hidden", "true");
    video.setAttribute("tabindex", "-1");
    [["webm", "wakeWebm"], ["mp4", "wakeMp4"]].forEach(function (pair) {
      var source = document.createElement("source");
      source.src = where.dataset[pair[1]];
      source.type = "video/" + pair[0];
      video.appendChild(source);
    });
    document.body.appendChild(video);
    video.play().catch(function () { video.remove(); video = null; });  // the next tap tries again
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);
  document.addEventListener("pointerup", wakeByVideo, true);
  document.addEventListener("keyup", wakeByVideo, true);
})();
