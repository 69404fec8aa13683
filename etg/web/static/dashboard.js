// The floor dashboard: every table, the linked levels, the last hits, the reconciliation,
// and first of all any jackpot waiting for a floorperson's validation. Everything comes
// down the event stream; the page asks the server for nothing after it loads.
import { MeterGuard, ServerClock, ago, clock, element, follow, levelName, money } from "./floor.js";

const guard = new MeterGuard();
const serverClock = new ServerClock();
const STALE_S = 3; // SPEC §13: a table refuses linked wagers within 3 s of losing the link
// The states a table reports with its heartbeat (etg/floor's floor.heartbeat).
const STATE_NAMES = {
  open: "Open", jackpot: "Jackpot lock", tilted: "Tilted", closed: "Closed",
};
const ATTENTION = { jackpot: 0, tilted: 1 };

let picture = null;
let sortKey = "attention";
let sortUp = true;

function stateName(state) {
  return STATE_NAMES[state] ?? String(state ?? "—").replaceAll("_", " ");
}

function heartbeatAge(table) {
  return table.last_heartbeat == null ? null : serverClock.nowS() - table.last_heartbeat;
}

// A table's link as the floor should read it: what the table last said, unless it has
// gone quiet for longer than the table itself would wait.
function linkOf(table) {
  const age = heartbeatAge(table);
  if (table.state !== "closed" && (age === null || age > STALE_S)) return "silent";
  return table.link_state ?? "—";
}

function attention(table) {
  if (table.state in ATTENTION) return ATTENTION[table.state];
  return linkOf(table) === "up" || table.state === "closed" ? 3 : 2;
}

function sortValue(table, key) {
  switch (key) {
    case "attention": return [attention(table), table.table_id];
    case "heartbeat_age": return [heartbeatAge(table) ?? Infinity];
    case "link_state": return [linkOf(table)];
    default: return [table[key] ?? ""];
  }
}

function compare(a, b) {
  for (let i = 0; i < a.length; i += 1) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

function renderPending(hits) {
  const box = document.getElementById("pending");
  const waiting = hits.filter((hit) => !hit.validated_at).sort((a, b) => a.order_no - b.order_no);
  box.replaceChildren();
  box.hidden = waiting.length === 0;
  for (const hit of waiting) {
    box.append(element("div", { class: "jackpot", "data-hit": hit.hit_id },
      element("span", { class: "label" }, "JACKPOT AWAITING VALIDATION"),
      element("span", { class: "where" },
        `Table ${hit.asset_number ?? hit.table_id} · seat ${hit.seat}`),
      element("span", { class: "what" }, levelName(hit)),
      element("span", { class: "amount" }, money(hit.amount_cents)),
      element("span", { class: "since", "data-since": hit.claimed_at },
        `waiting ${ago(serverClock.nowS() - hit.claimed_at)}`)));
  }
}

function renderLevels(levels) {
  const box = document.getElementById("levels");
  box.replaceChildren();
  for (const level of levels) {
    const cents = guard.accept(level);
    box.append(element("article", { class: `level level-${level.level}`, "data-level": level.level },
      element("h2", {}, levelName(level)),
      element("p", { class: "meter", "data-cents": cents }, money(cents)),
      element("dl", {},
        element("dt", {}, "Today"),
        element("dd", { class: "today", "data-cents": level.contributions_today_cents ?? 0 },
          money(level.contributions_today_cents ?? 0)),
        element("dt", {}, "Contributions"), element("dd", {}, money(level.contributions_cents ?? 0)),
        element("dt", {}, "Hits"), element("dd", {}, String(level.hits ?? 0)),
        element("dt", {}, "Wins paid"), element("dd", {}, money(level.wins_cents ?? 0)),
        element("dt", {}, "Reserve"), element("dd", {}, money(level.reserve_cents ?? 0)),
        element("dt", {}, "Overflow"), element("dd", {}, money(level.overflow_cents ?? 0)))));
  }
}

function renderTables(tables) {
  document.getElementById("table-count").textContent = `${tables.length}`;
  const rows = [...tables].sort((a, b) => {
    const order = compare(sortValue(a, sortKey), sortValue(b, sortKey));
    return sortUp ? order : -order;
  });
  const body = document.querySelector("#tables tbody");
  body.replaceChildren(...rows.map((table) => {
    const link = linkOf(table);
    return element("tr", { "data-table": table.table_id, class: `state-${table.state}` },
      element("td", { class: "id" }, table.table_id),
      element("td", {}, table.asset_number ?? "—"),
      element("td", {}, element("span", { class: `chip state-${table.state}` }, stateName(table.state))),
      element("td", {}, element("span", { class: `chip link-${link}` }, link)),
      element("td", { class: "age", "data-heartbeat": table.last_heartbeat ?? "" },
        ago(heartbeatAge(table))),
      element("td", { class: `num${table.outbox_depth > 0 ? " warn" : ""}` },
        String(table.outbox_depth ?? 0)),
      element("td", {}, table.dealer ?? "—"),
      element("td", { class: "num" }, String(table.rounds_today ?? 0)));
  }));
  for (const th of document.querySelectorAll("#tables th")) {
    const on = th.dataset.key === sortKey;
    th.classList.toggle("sorted", on);
    th.setAttribute("aria-sort", on ? (sortUp ? "ascending" : "descending") : "none");
  }
}

function renderHits(hits) {
  const body = document.querySelector("#hits tbody");
  body.replaceChildren(...hits.map((hit) => element("tr",
    { "data-hit": hit.hit_id, class: hit.validated_at ? "" : "waiting" },
    element("td", { class: "num" }, String(hit.hit_id)),
    element("td", {}, clock(hit.claimed_at)),
    element("td", {}, levelName(hit)),
    element("td", {}, hit.asset_number ?? hit.table_id),
    element("td", { class: "num" }, String(hit.seat)),
    element("td", { class: "num" }, String(hit.round)),
    element("td", { class: "num" }, money(hit.amount_cents)),
    element("td", {}, hit.validator ?? "waiting"))));
}

function renderReconciliation(result) {
  const verdict = document.getElementById("reconciled");
  const detail = document.getElementById("reconciled-detail");
  const box = document.getElementById("reconciliation");
  if (!result || result.exact === null || result.exact === undefined) {
    verdict.textContent = "Not run yet";
    detail.textContent = "etg floor reconcile";
    box.className = "panel reconciliation";
    return;
  }
  verdict.textContent = result.exact ? "Exact to the cent" : "DIFFERENCE";
  detail.textContent = (result.exact ? "" : `${result.difference} · `) +
    `last run ${result.at ? clock(result.at) : "—"}`;
  box.className = `panel reconciliation ${result.exact ? "exact" : "different"}`;
}

function render() {
  if (picture === null) return;
  renderPending(picture.hits ?? []);
  renderLevels(picture.levels ?? []);
  renderTables(picture.tables ?? []);
  renderHits(picture.hits ?? []);
  renderReconciliation(picture.reconciliation);
  const up = picture.controller?.up !== false;
  const link = document.getElementById("link");
  if (!up) {
    link.className = "pill down";
    link.textContent = `CONTROLLER UNREACHABLE since ${clock(picture.controller.since)}`;
  }
}

function showLink(up) {
  const link = document.getElementById("link");
  if (up && picture?.controller?.up !== false) {
    link.className = "pill live";
    link.textContent = "LIVE";
  } else if (!up) {
    link.className = "pill down";
    link.textContent = "RECONNECTING";
  }
}

// The ages ("4 s ago") move on by themselves between pictures; the figures do not.
function tick() {
  document.getElementById("clock").textContent = clock(serverClock.nowS());
  for (const cell of document.querySelectorAll("td.age")) {
    const beat = cell.dataset.heartbeat;
    cell.textContent = beat === "" ? "never" : ago(serverClock.nowS() - Number(beat));
  }
  for (const since of document.querySelectorAll("#pending .since")) {
    since.textContent = `waiting ${ago(serverClock.nowS() - Number(since.dataset.since))}`;
  }
  if (picture !== null) renderTables(picture.tables ?? []);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const th of document.querySelectorAll("#tables th")) {
    const sortBy = () => {
      sortUp = sortKey === th.dataset.key ? !sortUp : true;
      sortKey = th.dataset.key;
      render();
    };
    th.tabIndex = 0;
    th.addEventListener("click", sortBy);
    th.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        sortBy();
      }
    });
  }
  follow("/events", (floor) => {
    picture = floor;
    serverClock.sync(floor.now);
    render();
    showLink(true);
    window.etgShown = { at: performance.timeOrigin + performance.now(), floor };
  }, showLink, () => {
    // The server no longer knows this session (it restarted, or the shift's session ended):
    // back through "/", which is the dashboard again or the login.
    window.location.assign("/");
    return true;
  });
  setInterval(tick, 1000);
});
