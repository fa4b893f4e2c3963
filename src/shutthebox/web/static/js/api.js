// The JSON API, the seat tokens this browser holds, and the player this device is on the
// server (a claimed name and its player token). Every other module calls the server through
// here, so errors reach the screens as sentences that say what to do, and every request
// says who the player is.

import { t } from "./i18n.js";

const TOKENS_KEY = "shutthebox.tokens";
const INVITES_KEY = "shutthebox.invites";
const PLAYER_KEY = "shutthebox.player";        // {name, token}: daily.js reads it too

/** An answer other than 2xx: the status, and the server's sentence. */
export class ApiError extends Error {
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

function sentence(text) {
  const trimmed = String(text).trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function detailOf(data, status) {
  const detail = data && data.detail;
  if (Array.isArray(detail)) {
    const fields = detail.map((d) => `${(d.loc || []).filter((p) => p !== "body").join(" ")}: ${d.msg}`);
    return sentence(t("Please check {fields}", { fields: fields.join("; ") }));
  }
  if (detail) return sentence(detail);
  if (status === 429) return t("Too many requests: wait a moment and try again.");
  if (status >= 500) return t("The server had a problem: try again in a moment.");
  return t("The server refused the request (status {status}).", { status });
}

/** Calls the API: JSON in and out; throws ApiError with a sentence on failure. */
export async function request(path, { method = "GET", body, headers = {} } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { Accept: "application/json", ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...playerHeader(), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    window.dispatchEvent(new Event("shutthebox:unreachable"));      // offline.js says so
    throw new ApiError(0, t("Could not reach the server: check your connection and try again."));
  }
  const data = await response.json().catch(() => null);
  // A refusal of who we are may be of the player token: player.js asks the server whether
  // it still knows this device's player (and forgets one it does not).
  if (response.status === 401 && player() && path !== "/api/players/me") window.dispatchEvent(new Event("shutthebox:player-doubt"));
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After"));
    throw new ApiError(response.status, detailOf(data, response.status), Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  return data;
}

/** A fresh random id for an Idempotency-Key (also outside secure contexts). */
export function freshKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// --- tokens and invites in local storage ---------------------------------------------

function readStore(key) {
  try { return JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch { return {}; }
}

function writeStore(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: seats last this visit */ }
}

/** The seats this browser holds in a game: {seat: token}. */
export function tokensFor(gameId) {
  return readStore(TOKENS_KEY)[gameId] || {};
}

export function saveTokens(gameId, tokens) {
  const all = readStore(TOKENS_KEY);
  all[gameId] = { ...(all[gameId] || {}), ...tokens };
  writeStore(TOKENS_KEY, all);
}

export function allTokens() {
  return Object.values(readStore(TOKENS_KEY)).flatMap((seats) => Object.values(seats)).slice(-200);
}

export function invitesFor(gameId) {
  return readStore(INVITES_KEY)[gameId] || [];
}

export function saveInvites(gameId, invites) {
  if (!invites || !invites.length) return;
  const all = readStore(INVITES_KEY);
  all[gameId] = invites;
  writeStore(INVITES_KEY, all);
}

// --- the player this device is ---------------------------------------------------------

/** The name this device claimed (or brought here) on the server, {name, token}, or null. */
export function player() {
  const found = readStore(PLAYER_KEY);
  return typeof found.name === "string" && typeof found.token === "string" ? found : null;
}

export function savePlayer(name, token) {
  writeStore(PLAYER_KEY, { name, token });
}

export function forgetPlayer() {
  try { localStorage.removeItem(PLAYER_KEY); } catch { /* private mode: nothing kept */ }
}

function playerHeader() {
  const found = player();
  return found ? { "X-Player-Token": found.token } : {};
}

function bearer(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function anyToken(gameId) {
  return Object.values(tokensFor(gameId))[0];
}

// --- the calls -----------------------------------------------------------------------

export const presets = () => request("/api/presets");
export const strengths = () => request("/api/strengths");
export const choices = () => request("/api/choices");

export async function createGame(spec) {
  const state = await request("/api/games", { method: "POST", body: spec });
  if (state.tokens) saveTokens(state.id, state.tokens);
  saveInvites(state.id, state.invites);
  return state;
}

export const gameState = (id, since = 0) => request(`/api/games/${encodeURIComponent(id)}?since=${since}`);

/** One action (roll, dice, shut) for a seat; the same key is sent again on a retry. */
export function act(id, path, body, seat, key) {
  return request(`/api/games/${encodeURIComponent(id)}/${path}`, {
    method: "POST", body, headers: { ...bearer(tokensFor(id)[seat]), "Idempotency-Key": key },
  });
}

/** A table action (pause, resume, end, hand with {seat}, back) with the token of ``seat``. */
export function tableAction(id, action, seat, body = {}) {
  return request(`/api/games/${encodeURIComponent(id)}/table/${action}`, {
    method: "POST", body, headers: bearer(tokensFor(id)[seat]),
  });
}

export const hint = (id) => request(`/api/games/${encodeURIComponent(id)}/hint`, { headers: bearer(anyToken(id)) });
export const coach = (id) => request(`/api/games/${encodeURIComponent(id)}/coach`, { headers: bearer(anyToken(id)) });
export const review = (id) => request(`/api/games/${encodeURIComponent(id)}/review`);
/** The rules of a game, or (no id) of the usual game, the first screen's. */
export const howToPlay = (id) => request(id ? `/api/games/${encodeURIComponent(id)}/how-to-play` : "/api/how-to-play");

/** Plays a finished game again (or takes this browser's seats in its next game): the seats'
 * new tokens are kept under the new game. */
export async function rematch(id) {
  const [first, ...rest] = Object.values(tokensFor(id));
  const answer = await request(`/api/games/${encodeURIComponent(id)}/rematch`, {
    method: "POST", headers: { ...bearer(first), ...(rest.length ? { "X-Seat-Tokens": rest.join(",") } : {}) },
  });
  saveTokens(answer.game_id, answer.tokens);
  return answer;
}

export const series = (id) => request(`/api/games/${encodeURIComponent(id)}/series`);
export const reactions = () => request("/api/reactions");
export const react = (id, reaction) => request(`/api/games/${encodeURIComponent(id)}/react`, {
  method: "POST", body: { reaction }, headers: bearer(anyToken(id)),
});

const TOKENS_A_REQUEST = 20; // the server's limit (seats.MAX_TOKENS)

/** The games this browser holds seats in, newest first (asked for 20 tokens at a time). */
export async function myGames() {
  const tokens = allTokens();
  const batches = [];
  for (let i = 0; i < tokens.length; i += TOKENS_A_REQUEST) batches.push(tokens.slice(i, i + TOKENS_A_REQUEST));
  const answers = await Promise.all(batches.map((batch) => request("/api/games", { headers: { "X-Seat-Tokens": batch.join(",") } })));
  const byId = new Map();
  for (const game of answers.flat()) {
    const seen = byId.get(game.id);
    byId.set(game.id, seen ? { ...game, seats: [...new Set([...seen.seats, ...game.seats])].sort() } : game);
  }
  return [...byId.values()].sort((a, b) => String(b.updated).localeCompare(String(a.updated)));
}

export const invite = (code) => request(`/api/invites/${encodeURIComponent(code)}`);

/** Takes the invite's seat under `name` (the claimed name, when the player is kept here:
 * the server binds the seat to them). */
export async function join(gameId, code, name) {
  const answer = await request(`/api/games/${encodeURIComponent(gameId)}/join`, {
    method: "POST", body: { invite: code, name },
  });
  saveTokens(answer.game_id, { [answer.seat]: answer.token });
  return answer;
}

export const players = () => request("/api/players");

/** Claims `name` on the server: kept as this device's player; answers {name, token,
 * recovery}, the recovery code shown this once. */
export async function claimName(name) {
  const answer = await request("/api/players", { method: "POST", body: { name } });
  savePlayer(answer.name, answer.token);
  return answer;
}

/** Brings a claimed name to this device with its recovery code. */
export async function recoverName(name, code) {
  const answer = await request("/api/players/recover", { method: "POST", body: { name, code } });
  savePlayer(answer.name, answer.token);
  return answer;
}

/** Who the server knows this device as: the player kept here, checked; a player the server
 * does not know (401) is forgotten, and null answered. Other failures keep the player. */
export async function checkPlayer() {
  if (!player()) return null;
  try {
    return await request("/api/players/me");
  } catch (error) {
    if (error.status === 401) { forgetPlayer(); return null; }
    return player();
  }
}
export const stats = (name) => request(`/api/stats?player=${encodeURIComponent(name)}`);

/** The live feed of a game: calls onState with each new state, onProgress with the
 * server's long work for the game ({fraction, what}), and onTable with what is said at the
 * table (reactions, the rematch; the feed stays open a while after the game for them);
 * reconnects from the last event. */
export function live(id, since, onState, onProgress = () => {}, onTable = () => {}, onPresence = () => {}) {
  let socket = null;
  let closed = false;
  let delay = 500;
  let last = since;
  const open = () => {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/live?since=${last}&table=1`);
    socket.addEventListener("open", () => {
      delay = 500;
      // the seats held here are at the table while the page is open (and one the computer
      // played while we were away is ours again)
      const tokens = Object.values(tokensFor(id));
      if (tokens.length) socket.send(JSON.stringify({ type: "hello", tokens }));
    });
    socket.addEventListener("message", (message) => {
      let state;
      try { state = JSON.parse(message.data); } catch { return; }
      if (state.type === "progress") { onProgress(state); return; }
      if (state.type === "reaction" || state.type === "rematch") { onTable(state); return; }
      if (state.type === "presence") { onPresence(state); return; }
      if (state.type !== "state") return;
      last = Math.max(last, state.event_count);
      onState(state);
    });
    socket.addEventListener("close", (event) => {
      // 4404: no such game; 4000: the game is over and its last state came: nothing to follow
      if (closed || event.code === 4404 || event.code === 4000) return;
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    });
  };
  open();
  return {
    seen(count) { last = Math.max(last, count); },
    close() { closed = true; if (socket) socket.close(); },
  };
}
