/* The screen stays awake while the table page is open: the Wake Lock API where there is one (a
   secure context), else (plain http on the LAN) a muted, looping, inline video of a second,
   started by the first tap, as NoSleep.js does; either is taken up again when the page is back. */
let video = null;
const spot = () => document.querySelector("[data-wake]");
function wake() {
  if (!spot() || document.visibilityState !== "visible") return;
  if ("wakeLock" in navigator) navigator.wakeLock.request("screen").catch(() => {});
  else video?.play().catch(() => {});
}
function wakeByVideo() {
  const where = spot();
  if (!where || "wakeLock" in navigator || video) return;
  video = Object.assign(document.createElement("video"), { className: "wake-video", muted: true, tabIndex: -1 });
  ["muted", "playsinline", "loop"].forEach((name) => video.setAttribute(name, ""));
  video.setAttribute("aria-hidden", "true");
  for (const [type, source] of [["webm", where.dataset.wakeWebm], ["mp4", where.dataset.wakeMp4]]) {
    video.append(Object.assign(document.createElement("source"), { src: source, type: `video/${type}` }));
  }
  document.body.append(video);
  video.play().catch(() => { video.remove(); video = null; });  // the next tap tries again
}
document.addEventListener("visibilitychange", wake);
document.addEventListener("DOMContentLoaded", wake);
document.addEventListener("pointerup", wakeByVideo, true);
document.addEventListener("keyup", wakeByVideo, true);
