/* The round entry at once in the browser: the keypad and the chips (the same keys the server
   carries out without JavaScript, referee/keypad.py), whose hand is tapped, card or points mode,
   and the typing kept on the phone until the round is saved. The penalty shown is the server's
   preview. */
const on = (type, selector, handler) => document.addEventListener(type, (event) => {
  const el = event.target.closest?.(selector);
  if (el) handler(el, event);
});
const tokens = (input) => input.value.trim().split(/[\s,;]+/).filter(Boolean);
const changed = (input) => input.dispatchEvent(new Event("input", { bubbles: true }));
const checked = (form, name) => form.querySelector(`input[name=${name}]:checked`);
const radioFor = (form, seat) => form.querySelector(`input[name=active][value="${seat}"]`);
const choose = (radio) => { radio.checked = true; markActive(radio.form); };
const stored = (key) => { try { return localStorage.getItem(key); } catch { return null; } };  // private mode

on("click", "form[data-entry] [data-tap]", (key, event) => {  // a card into the active hand
  event.preventDefault();
  const form = key.closest("form");
  const active = checked(form, "active");
  const input = active && form.querySelector(`#hand-${active.value}`);
  if (!input) return;
  input.value = [...tokens(input), key.dataset.tap].join(" ");
  addChip(form, active.value, key, tokens(input).length - 1);
  changed(input);
  advanceWhenFull(form, active.value);
});
// The tapped card shows in the hand in the same frame, a copy of its key (the server's preview,
// which scores the hand, then draws the hand as it has it: the same chips).
function addChip(form, seat, key, index) {
  const chips = form.querySelector(`#result-${seat} .chips`);
  if (!chips) return;
  chips.querySelector(".hint")?.remove();
  const chip = document.createElement("button");
  Object.assign(chip, { type: "submit", name: "untap", value: `${seat}:${index}`, className: key.className, textContent: key.textContent });
  chip.dataset.untap = String(index);
  chip.setAttribute("aria-label", (chips.dataset.remove || "{card}").replace("{card}", key.getAttribute("aria-label").split(",")[0]));
  chips.append(chip);
}
// A preview that answers for a hand since tapped further is not drawn: the next one is on its way,
// and a chip already shown never goes away and comes back.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const { target, fragment } = event.detail;
  if (!target?.id?.startsWith("result-") || !fragment) return;
  const hand = target.closest("form")?.querySelector(`#hand-${target.id.slice(7)}`);
  const drawn = fragment.firstElementChild?.dataset.hand;
  const same = (a) => a.trim().toUpperCase().split(/[\s,;]+/).filter(Boolean).join(" ");
  if (hand && drawn !== undefined && same(hand.value) !== same(drawn)) event.detail.shouldSwap = false;
});
on("click", "form[data-entry] [data-untap]", (chip, event) => {  // a card out of a hand
  event.preventDefault();
  const hand = chip.closest("form").querySelector(`#hand-${chip.closest("[data-seat]").dataset.seat}`);
  if (!hand) return;
  hand.value = tokens(hand).filter((_, at) => at !== Number(chip.dataset.untap)).join(" ");
  chip.remove();
  changed(hand);
});
on("click", "form[data-entry] .player-entry", (block, event) => {  // a tap on a hand chooses it
  const radio = !event.target.closest("input, button, label") && radioFor(block.closest("form"), block.dataset.seat);
  if (radio) choose(radio);
});
on("click", "form[data-entry] [data-step]", (button, event) => {  // buys go up and down with the steppers
  event.preventDefault();
  const input = document.getElementById(button.dataset.for);
  if (!input) return;
  input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10)));
  changed(input);
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

// The hand the keypad fills is outlined. With a round in progress the button sends in that
// player's hand and says whose; a hand another phone sent in is replaced only by a button
// that says so (the server asks for it too).
function markActive(form) {
  const active = checked(form, "active")?.value;
  form.querySelectorAll(".player-entry").forEach((block) => block.classList.toggle("active", block.dataset.seat === active));
  const send = form.querySelector("[data-send-hand]");
  const replace = form.querySelector("[data-replace-only]");  // on a phone without a seat, beside Record
  const block = form.querySelector(`.player-entry[data-seat="${active}"]`);
  const name = block?.querySelector(".player-name")?.textContent.trim();
  const replaces = Boolean(block?.hasAttribute("data-replaces"));
  if (replace && name) {
    replace.hidden = !replaces;
    replace.textContent = replace.dataset.replaceHand.replace("{name}", name);
  }
  if (!send || !name) return;
  send.value = replaces ? "replace" : "hand";
  send.textContent = send.dataset[replaces ? "replaceHand" : "sendHand"].replace("{name}", name);
  // Send sends the other hands typed here too (none of them in yet, the server says which): it says how many.
  const typed = [...form.querySelectorAll(".player-entry:not(.out):not([data-replaces])")].filter((other) => other !== block &&
    !other.querySelector(".tally.sent") && ["hand", "points"].some((kind) => form.elements[`${kind}-${other.dataset.seat}`]?.value.trim()));
  const many = !replaces && typed.length ? JSON.parse(send.dataset.sendMany || "{}")[typed.length + 1] : null;
  if (many) send.textContent = many;
}
on("input", "form[data-draft] .hand-input, form[data-draft] .points-input", (field) => markActive(field.form));
on("change", "form[data-entry] input[name=active]", (radio) => markActive(radio.form));
on("focusin", "form[data-draft] .points-input", (field) => {  // points mode: the field typed in is whose hand
  const radio = radioFor(field.form, field.closest(".player-entry").dataset.seat);
  if (radio && !radio.checked) choose(radio);
});
document.addEventListener("htmx:oobAfterSwap", (event) => {  // Record or Send came alone after an event
  const form = event.detail.target?.id === "record-action" && event.detail.target.closest("form");
  if (form) markActive(form);
});
// Another phone's step brings the bar again; when it is the same bar (its versions aside) it is
// not drawn anew, so a thumb already on Send or Record never loses its tap to the button's twin.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const { target, fragment } = event.detail;
  if (target?.id !== "record-action" || !fragment) return;
  const [now, fresh] = [target, fragment].map((el) => el.cloneNode(true));
  [now, fresh].forEach((el) => {  // whose hand Send names is this phone's own choice (markActive)
    el.querySelectorAll("[data-send-hand]").forEach((button) => { button.textContent = ""; button.removeAttribute("value"); });
    el.querySelectorAll("[data-replace-only]").forEach((button) => { button.textContent = ""; button.hidden = true; });
    el.querySelectorAll("input[type=hidden]").forEach((input) => input.remove());
  });
  if (now.innerHTML !== fresh.innerHTML) return;
  event.detail.shouldSwap = false;
  target.querySelectorAll("input[type=hidden]").forEach((input) => input.remove());
  fragment.querySelectorAll("input[type=hidden]").forEach((input) => target.prepend(input.cloneNode()));
});

// Who went out holds no cards: not offered to tap for (the server renders it so too: no button, no
// gap where it was), and the keypad moves on; in points mode the first empty field takes the
// focus (the number keyboard opens).
on("change", "form[data-entry] input[name=winner]", (winner) => {
  const form = winner.form;
  form.querySelectorAll(".player-entry").forEach((block) => block.classList.toggle("out", block.dataset.seat === winner.value));
  form.querySelectorAll("input[name=active]").forEach((radio) => {
    radio.disabled = radio.value === winner.value;
    radio.closest("label").classList.toggle("out", radio.disabled);
  });
  const next = form.querySelector("input[name=active]:not(:disabled)");
  if (checked(form, "active")?.disabled && next) choose(next);
  // The phone of the player who went out, every other player with a phone: nothing to enter here.
  const waiting = form.querySelector(".waiting-note");
  if (waiting) waiting.hidden = Boolean(next);
  const mine = form.querySelector(".winner-note");  // the winner's phone, hands of players without a phone offered
  if (mine) mine.hidden = !(next && winner.value === form.dataset.mine);
  if (mode() === "points") nextPoints(form, null);
});

// Where the round fixes a hand's size (Mexican round 7), a full hand moves the keypad on to the
// next player still to enter: the server says how many cards each hand holds (data-holds).
// With a round in progress each hand is sent in on its own: the keypad stays on it.
const holds = (form, seat) => Number(form.querySelector(`#result-${seat}`)?.dataset.holds) || 0;
const count = (form, seat) => tokens(form.querySelector(`#hand-${seat}`) || { value: "" }).length;
const room = (form, seat) => (holds(form, seat) ? count(form, seat) < holds(form, seat) : !count(form, seat));
function advanceWhenFull(form, seat) {
  if (form.hasAttribute("data-draft") || !holds(form, seat) || room(form, seat)) return;
  const radios = [...form.querySelectorAll("input[name=active]")];
  const at = radios.findIndex((radio) => radio.value === seat);
  const out = checked(form, "winner")?.value;
  const next = radios.slice(at + 1).concat(radios.slice(0, at)).find((r) => r.value !== out && room(form, r.value));
  if (next) choose(next);
}

// Card mode (the keypad) or points mode (a number field per player), one tap apart; the phone
// remembers the choice. Enter ("Next" on a number keyboard) goes on to the next empty field.
const mode = () => document.getElementById("entry")?.dataset.mode || "cards";
function applyMode(value) {
  const entry = document.getElementById("entry");
  const toggle = entry?.querySelector("[data-entry-mode]");
  if (!toggle) return;
  entry.dataset.mode = value === "points" ? "points" : "cards";
  toggle.setAttribute("aria-pressed", String(value === "points"));
}
on("click", "[data-entry-mode]", (toggle) => {
  const value = toggle.getAttribute("aria-pressed") === "true" ? "cards" : "points";
  try { localStorage.setItem("entry-mode", value); } catch { /* private mode */ }
  applyMode(value);
  const form = document.querySelector("form[data-entry]");
  if (value === "points" && form && checked(form, "winner")) nextPoints(form, null);
});
// An entry swapped in (this phone's Record, a push) is in the phone's mode before it is drawn or
// measured: drawn first as the keypad's taller layout, then as points at the settle, it moved the
// page under the thumb (the keypad kept in view, the browser's scroll anchoring).
const followMode = () => applyMode(stored("entry-mode") || "cards");
document.addEventListener("htmx:afterSwap", followMode);
document.addEventListener("htmx:oobAfterSwap", followMode);
function nextPoints(form, after) {
  const out = checked(form, "winner")?.value;
  const fields = [...form.querySelectorAll(".points-input")].filter((f) => f.closest(".player-entry").dataset.seat !== out);
  const next = fields.slice(after ? fields.indexOf(after) + 1 : 0).find((f) => !f.value.trim());
  next?.focus();
  return next;
}
// Enter ("Next") never records or sends: the table sees every hand first, and a tap on Record or
// Send is the one that writes. It goes on to the next empty field; after the last it closes the
// keyboard. (Without JavaScript Enter presses the form's first button, default-submit.)
on("keydown", "form[data-entry] .points-input, form[data-entry] .hand-input", (field, event) => {
  if (event.key !== "Enter") return;
  event.preventDefault();
  if (field.matches(".points-input") ? nextPoints(field.form, field) : nextHand(field)) return;
  field.blur();
});
function nextHand(after) {
  const out = checked(after.form, "winner")?.value;
  const fields = [...after.form.querySelectorAll(".hand-input")].filter((f) => f.closest(".player-entry").dataset.seat !== out);
  const next = fields.slice(fields.indexOf(after) + 1).find((f) => !f.value.trim());
  next?.focus();
  return next;
}

// What is typed is kept on the phone until the round is saved: a lost network, a reload, a
// closed tab, or the entry drawn anew (another phone said who went out) loses nothing. With a
// round in progress who went out is the round's, and the server keeps a hand as it is typed
// (once the round has a winner): only the hands are kept here, and one comes back only into an
// entry that has nothing in that hand (a hand sent in is as the server has it).
const draftKey = (form) => `draft:${form.getAttribute("action")}:${form.elements.number?.value || ""}`;
const handField = (el) => /^(hand|points|buys)-\d+$/.test(el.name);
function keep(form) {
  form.dataset.dirty = "1";
  const inDraft = form.hasAttribute("data-draft");
  const kept = [...form.elements].filter((el) => el.name && !["hidden", "submit"].includes(el.type) &&
    (!/radio|checkbox/.test(el.type) || el.checked) && (!inDraft || handField(el)));
  try { localStorage.setItem(draftKey(form), JSON.stringify(Object.fromEntries(kept.map((el) => [el.name, el.value])))); } catch { /* private mode */ }
}
on("input", "form[data-entry]", keep);
on("change", "form[data-entry]", keep);
function restore(form, data) {  // the fields put back, the first of them
  if (!form.hasAttribute("data-draft")) {
    Object.entries(data).forEach(([name, value]) => form.querySelectorAll(`[name="${name}"]`).forEach((el) => {
      if (/radio|checkbox/.test(el.type)) el.checked = el.value === value || value === "on";
      else el.value = value;
    }));
    return form.querySelector(".hand-input");
  }
  const back = [...form.querySelectorAll(".player-entry")].filter((block) => {
    const [hand, points, buys] = ["hand", "points", "buys"].map((kind) => form.elements[`${kind}-${block.dataset.seat}`]);
    const stored = (field) => (field && data[field.name]) || "";
    if (!hand || hand.value.trim() || points?.value.trim() || !(stored(hand).trim() || stored(points).trim())) return false;
    [hand, points, buys].forEach((field) => { if (field && data[field.name] !== undefined) field.value = data[field.name]; });
    return true;
  });
  const active = checked(form, "active")?.value;
  const first = back.find((block) => block.dataset.seat === active) || back[0];
  return first && form.elements[`hand-${first.dataset.seat}`];
}
htmx.onLoad((root) => {  // the entry once htmx has readied it (its previews listen): not before
  followMode();
  const form = root.matches?.("form[data-entry]") ? root : root.querySelector?.("form[data-entry]");
  if (!form || form.dataset.dirty) return;
  try {  // what was kept for a round no longer the one to play goes
    const mine = draftKey(form);
    Object.keys(localStorage).filter((k) => k.startsWith(mine.slice(0, mine.lastIndexOf(":") + 1)) && k !== mine).forEach((k) => localStorage.removeItem(k));
  } catch { /* private mode */ }
  const data = JSON.parse(stored(draftKey(form)));
  const first = data && restore(form, data);
  if (!data || (form.hasAttribute("data-draft") && !first)) return;
  form.dataset.dirty = "1";
  if (first) changed(first);  // its preview scores it (and, with a round in progress, the server keeps it)
});
document.body.addEventListener("roundSaved", () => {
  try { Object.keys(localStorage).filter((k) => k.startsWith("draft:")).forEach((k) => localStorage.removeItem(k)); } catch { /* private mode */ }
});

// A refused Record: the first reason (the server marks it autofocus, for the page without
// JavaScript) is brought to the middle of the screen, clear of the Record bar, and focused (a
// screen reader reads it). Once the form changes its previews are checked as Record would
// check it (the refusal's hidden field says so), and the list shrinks as each thing is fixed;
// a preview sent before the refusal answers without that mark and leaves the list alone.
document.addEventListener("htmx:afterSettle", (event) => {
  const error = event.detail.requestConfig?.elt?.matches?.("form[data-entry]") ? document.querySelector("#entry [autofocus]") : null;
  error?.scrollIntoView({ block: "center" });
  error?.focus({ preventScroll: true });
});
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const { target, fragment } = event.detail;
  if (target?.id === "entry-errors" && target.hasAttribute("data-refused") &&
      !fragment?.firstElementChild?.hasAttribute("data-rechecked")) event.detail.shouldSwap = false;
});

// A preview never crosses a Record: none is sent while the form is being recorded, and one that
// answers after its form was replaced is dropped, out-of-band parts too (the check sits on the
// preview itself: the events of an element that left the page no longer reach the document).
htmx.onLoad((root) => root.querySelectorAll("[data-preview]").forEach((el) => {
  el.addEventListener("htmx:beforeSwap", (event) => { if (!el.isConnected) event.detail.shouldSwap = false; });
}));
on("htmx:beforeRequest", "[data-preview]", (el, event) => {
  if (el.closest("form")?.classList.contains("htmx-request") || !el.isConnected) event.preventDefault();
});

// A tap made while this phone's own Send or Record was on its way is not lost when the answer
// draws the entry anew for the same round: whose hand the keypad fills, and what was typed in
// another hand meanwhile, are carried into the new entry (unless the answer changed that hand).
const typedValues = (form) => Object.fromEntries([...form.querySelectorAll(".hand-input, .points-input")].map((el) => [el.name, el.value]));
let sending = null;
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.detail.elt;
  if (form?.matches?.("form[data-entry]")) sending = { form, round: form.dataset.round, values: typedValues(form), active: checked(form, "active")?.value };
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (!sending || event.detail.elt !== sending.form) return;
  Object.assign(sending, { now: typedValues(sending.form), nowActive: checked(sending.form, "active")?.value, swapped: true });
});
document.addEventListener("htmx:afterSettle", () => {
  const was = sending;
  if (!was?.swapped) return;
  sending = null;
  const form = document.querySelector("form[data-entry]");
  if (!form || form === was.form || form.dataset.round !== was.round) return;
  let carried = false;
  Object.entries(was.now).forEach(([name, value]) => {
    const field = form.elements[name];
    if (!field || value === was.values[name] || field.value !== was.values[name]) return;
    field.value = value;
    changed(field);
    carried = true;
  });
  const radio = was.nowActive !== was.active && radioFor(form, was.nowActive);
  if (radio && !radio.disabled) { choose(radio); carried = true; }
  if (carried) keep(form);
});
