// What the dashboard and the sign share: money in cents, the meter guard, the event stream.
// Plain ES module, no build step: the server sends this file as it is.

const DOLLARS = new Intl.NumberFormat("en-US", {
  style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2,
});

// Integer cents to "$12,345.67", exact: the dollars and the cents are split as integers.
export function money(cents) {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.abs(Math.trunc(cents));
  const dollars = Math.floor(whole / 100);
  const rest = String(whole % 100).padStart(2, "0");
  return sign + DOLLARS.format(dollars).replace(/\.00$/, "") + "." + rest;
}

// A meter shown on a page never goes down except after a recorded hit or a supervisor's
// adjustment (SPEC §13). Each level's picture carries its count of hits, the sum of its
// adjustments and its contributions in: a picture with fewer hits or less contributed than
// already seen is older than what is shown and is set aside; otherwise the meter may go
// down only if a hit or an adjustment was recorded since. So a stale read after a
// reconnection (NOTIFY does not replay: the whole floor is read again) never takes a
// figure back.
export class MeterGuard {
  constructor() {
    this.seen = new Map();
  }

  // The amount to show for `level` ({level, current_cents, hits, adjustments,
  // contributions_cents}).
  accept(level) {
    const last = this.seen.get(level.level);
    const next = {
      cents: level.current_cents,
      hits: level.hits ?? 0,
      adjustments: level.adjustments ?? 0,
      contributions: level.contributions_cents ?? 0,
    };
    if (last !== undefined) {
      if (next.hits < last.hits || next.contributions < last.contributions) return last.cents;
      const recorded = next.hits > last.hits || next.adjustments !== last.adjustments;
      if (!recorded && next.cents < last.cents) return last.cents;
    }
    this.seen.set(level.level, next);
    return next.cents;
  }
}

// Follow the server's event stream: `onFloor(picture)` with the whole floor when the stream
// opens (and so after every reconnection) and after each change; `onLink(up)` as the stream
// comes and goes. EventSource reconnects by itself after the `retry` the server sets while
// the server is away; it gives up only when the server answers with something other than a
// stream (a session or a sign link the server no longer knows: it restarted, or the link
// expired). Then `onRefused()` is called, and unless it returns true (it has dealt with it)
// the stream is opened again in 2 s.
export function follow(url, onFloor, onLink, onRefused = null) {
  let source = null;
  const open = () => {
    source = new EventSource(url);
    source.addEventListener("open", () => onLink(true));
    source.addEventListener("floor", (event) => onFloor(JSON.parse(event.data)));
    source.addEventListener("error", () => {
      onLink(false);
      if (source.readyState === EventSource.CLOSED) {
        if (onRefused === null || onRefused() !== true) setTimeout(open, 2000);
      }
    });
  };
  open();
}

// The server's clock, as far as this page can tell: its `now` less the age of the picture.
export class ServerClock {
  constructor() {
    this.offsetMs = 0;
  }

  sync(serverNowS) {
    if (typeof serverNowS === "number") this.offsetMs = serverNowS * 1000 - Date.now();
  }

  nowS() {
    return (Date.now() + this.offsetMs) / 1000;
  }
}

export function ago(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return "never";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min ago`;
}

export function clock(unixS) {
  if (unixS === null || unixS === undefined) return "—";
  return new Date(unixS * 1000).toLocaleTimeString("en-US", { hour12: false });
}

// Names for the levels the paytable's meters have (etg.core.paytable: primary, secondary,
// progressive payout); an unknown id is shown as it is.
const LEVEL_NAMES = {
  primary: "Bonus Spin Jackpot",
  secondary: "Mini Jackpot",
  progressive_payout: "Progressive Payout",
};

export function levelName(level) {
  return level.name || LEVEL_NAMES[level.level] || level.level;
}

// element("td", {class: "x"}, "text", child...): a DOM node; text is never parsed as HTML.
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
