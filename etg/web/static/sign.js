// The meter sign: the linked meters in large figures, counting up as contributions arrive;
// on a hit, the amount with the winning table's asset number and seat (COMAR 36.05.03.24:
// the common display names the winning table) for a set time, then the reset meter.
import { MeterGuard, ServerClock, element, follow, levelName, money } from "./floor.js";

const params = new URLSearchParams(window.location.search);
const HOLD_S = Number(params.get("hold")) > 0 ? Number(params.get("hold")) : 15;
const COUNT_MS = 1200; // a rise is counted up over this long, never jumped

const guard = new MeterGuard();
const serverClock = new ServerClock();
const meters = new Map(); // level id -> {node, shown, from, target, start}
const seenHits = new Set();
const queue = [];
let first = true;
let showing = null;

function meterNode(level, index) {
  let meter = meters.get(level.level);
  if (meter === undefined) {
    const figure = element("p", { class: "figure" }, "");
    const node = element("article", { class: `meter rank-${Math.min(index, 2)}`, "data-level": level.level },
      element("h2", {}, levelName(level).toUpperCase()), figure);
    document.getElementById("meters").append(node);
    meter = { node, figure, shown: null, from: 0, target: 0, start: 0, fitted: 0 };
    meters.set(level.level, meter);
  }
  return meter;
}

// A figure wider than its frame (a meter grown past what the type was sized for) is set
// smaller, once each time its count of characters changes, never every frame.
function fit(meter) {
  const text = meter.figure.textContent;
  if (text.length === meter.fitted) return;
  meter.fitted = text.length;
  meter.figure.style.fontSize = "";
  const room = meter.node.clientWidth * 0.94;
  const width = meter.figure.getBoundingClientRect().width;
  if (width > room) {
    const size = parseFloat(getComputedStyle(meter.figure).fontSize);
    meter.figure.style.fontSize = `${Math.floor(size * room / width)}px`;
  }
}

function show(meter, cents) {
  meter.figure.textContent = money(cents);
  fit(meter);
}

function setTarget(meter, cents) {
  meter.figure.dataset.cents = String(cents);
  if (meter.shown === null || cents < meter.shown) {
    meter.shown = cents; // the first figure, or the reset after a recorded hit: no counting down
    meter.target = cents;
    show(meter, cents);
    return;
  }
  if (cents === meter.target) return;
  meter.from = meter.shown;
  meter.target = cents;
  meter.start = performance.now();
}

function frame(now) {
  for (const meter of meters.values()) {
    if (meter.shown === null || meter.shown === meter.target) continue;
    const t = Math.min(1, (now - meter.start) / COUNT_MS);
    const eased = 1 - (1 - t) ** 3;
    meter.shown = t >= 1 ? meter.target
      : Math.min(meter.target, meter.from + Math.floor((meter.target - meter.from) * eased));
    show(meter, meter.shown);
  }
  requestAnimationFrame(frame);
}

function celebrate(hit) {
  showing = hit;
  const box = document.getElementById("hit");
  box.dataset.hit = String(hit.hit_id);
  document.getElementById("hit-level").textContent = levelName(hit).toUpperCase();
  document.getElementById("hit-amount").textContent = money(hit.amount_cents);
  document.getElementById("hit-where").textContent =
    `TABLE ${hit.asset_number ?? hit.table_id} · SEAT ${hit.seat}`;
  box.hidden = false;
  box.classList.remove("leaving");
  setTimeout(() => {
    box.classList.add("leaving");
    setTimeout(() => {
      box.hidden = true;
      showing = null;
      next();
    }, 600);
  }, HOLD_S * 1000);
}

function next() {
  if (showing === null && queue.length > 0) celebrate(queue.shift());
}

function onFloor(floor) {
  serverClock.sync(floor.now);
  (floor.levels ?? []).forEach((level, index) => setTarget(meterNode(level, index), guard.accept(level)));
  const fresh = (floor.hits ?? [])
    .filter((hit) => !seenHits.has(hit.hit_id))
    .sort((a, b) => (a.order_no ?? a.hit_id) - (b.order_no ?? b.hit_id));
  for (const hit of fresh) {
    seenHits.add(hit.hit_id);
    // A sign switched on (or reconnected) shows a hit only while it is news.
    if (!first || serverClock.nowS() - hit.claimed_at < HOLD_S) queue.push(hit);
  }
  first = false;
  next();
  const latest = (floor.hits ?? [])[0];
  document.getElementById("last").textContent = latest === undefined ? "" :
    `LAST WIN ${money(latest.amount_cents)} · ${levelName(latest).toUpperCase()} · ` +
    `TABLE ${latest.asset_number ?? latest.table_id} · SEAT ${latest.seat}`;
  const link = document.getElementById("link");
  link.className = floor.controller?.up === false ? "link down" : "link";
  link.textContent = floor.controller?.up === false ? "●" : "";
  window.etgShown = { at: performance.timeOrigin + performance.now(), floor };
}

function onLink(up) {
  const link = document.getElementById("link");
  if (!up) {
    link.className = "link down";
    link.textContent = "●";
  }
}

const token = params.get("t") ?? "";
const expires = Number(token.split(".")[0]);
follow(`/sign/events?t=${encodeURIComponent(token)}`, onFloor, onLink, () => {
  if (Date.now() / 1000 >= expires) {
    // Expired: say so on the screen, where the technician looking at the TV will see it.
    const link = document.getElementById("link");
    link.textContent = "This sign link has expired: make a new one with etg floor web --sign-url";
    link.className = "link down expired";
  }
  return false; // try again: a server that restarted still knows a good link
});
requestAnimationFrame(frame);
// The figures were fitted with whatever font was there; fit them again with their own.
document.fonts.ready.then(() => {
  for (const meter of meters.values()) {
    meter.fitted = 0;
    fit(meter);
  }
});
