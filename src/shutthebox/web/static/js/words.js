// Plain words for formats, rules and the events of the log. The server sends format_text
// and rules_text where it can; these are the page's own wording for everything else.

export function money(cents) {
  return (cents / 100).toFixed(2);
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "rounds:3" -> "3 rounds", "elimination:45" -> "Out at 45 points", ... */
export function formatWords(format) {
  const [kind, number] = String(format).split(":");
  const n = number === undefined ? null : Number(number);
  switch (kind) {
    case "solo": return "Solo";
    case "single": return "One round";
    case "rounds": return plural(n ?? 3, "round");
    case "elimination": return `Out at ${n ?? 45} points`;
    case "loser-at": return `Loser at ${n ?? 100} points`;
    case "race": return `Race to ${n ?? 200} points`;
    case "battle": return "Battle";
    default: return String(format);
  }
}

/** The board's title: the format and, in a match of rounds, where it stands. */
export function gameTitle(state) {
  if (state.format_text) return state.format_text;
  const [kind, number] = String(state.format).split(":");
  if (kind === "rounds" && state.round) return `Round ${state.round} of ${number ?? 3}`;
  if (["elimination", "loser-at", "race"].includes(kind) && state.round) return `${formatWords(state.format)} · round ${state.round}`;
  return formatWords(state.format);
}

const ONE_DIE = {
  never: "two dice always",
  "low-sum": "one die allowed when the open tiles add up to 6 or less",
  "high-shut": "one die allowed once every tile from 7 up is shut",
};
const SCORING = {
  sum: "score the open tiles' sum (lowest wins)",
  digits: "score the open tiles read as one number (lowest wins)",
  covered: "score the shut tiles (highest wins)",
};

export function rulesWords(rules) {
  if (!rules) return "";
  const parts = [`${rules.tiles} tiles`];
  let dice = ONE_DIE[rules.one_die] || rules.one_die;
  if (rules.one_die !== "never" && rules.one_die_forced) dice = dice.replace("allowed", "forced");
  parts.push(dice);
  parts.push(rules.moves === "dice" ? "shut the total or the dice faces" : "shut any tiles adding up to the roll");
  if (rules.max_tiles) parts.push(`at most ${plural(rules.max_tiles, "tile")} a roll`);
  parts.push(SCORING[rules.scoring] || rules.scoring);
  if (!rules.instant_win) parts.push("a shut box is just the best score");
  return parts.join(" · ");
}

export function nameOf(state, seat) {
  const seats = state.seats || [];
  const fromSeats = seats.find((s) => s.seat === seat);
  if (fromSeats && fromSeats.name) return fromSeats.name;
  return (state.players && state.players[seat] && state.players[seat].name) || `Seat ${seat + 1}`;
}

export function rollWords(roll) {
  if (!roll || !roll.length) return "";
  return roll.length === 1 ? `${roll[0]}` : `${roll.join(" and ")} (${roll.reduce((a, b) => a + b, 0)})`;
}

/** One line of the game log for an event, or null for events the log does not show. */
export function narrate(event, state) {
  const name = (seat) => nameOf(state, seat);
  switch (event.type) {
    case "seat": return `${event.name} takes seat ${event.seat + 1}`;
    case "roll-off": return `${name(event.seat)} rolls ${rollWords(event.roll)} for the first turn`;
    case "first": return `${name(event.seat)} plays first`;
    case "round": return `Round ${event.round}`;
    case "turn":
      if (event.role === "knock") return `${name(event.seat)} knocks tiles down`;
      if (event.role === "stand") return `${name(event.seat)} stands tiles up`;
      return `${name(event.seat)}'s turn`;
    case "dice": return `${name(event.seat)} chooses ${plural(event.dice, "die", "dice")}`;
    case "roll": return `${name(event.seat)} rolls ${rollWords(event.roll)}`;
    case "shut": return `${name(event.seat)} ${String(state.format).startsWith("battle") ? "knocks down" : "shuts"} ${event.tiles.join(" ")}`;
    case "stand": return `${name(event.seat)} stands up ${event.tiles.join(" ")}`;
    case "pass": return `${name(event.seat)} has no move and passes`;
    case "turn-end": return event.shut_box ? `${name(event.seat)} shuts the box!` : `${name(event.seat)} has no move: scores ${event.score}`;
    case "round-end": return `Round ${event.round} ends`;
    case "eliminated": return `${name(event.seat)} is out with ${event.total}`;
    case "winner": return event.seats.length > 1 ? `${event.seats.map(name).join(" and ")} share the win` : `${name(event.seats[0])} wins`;
    case "loser": return `${event.seats.map(name).join(" and ")} lost`;
    case "payout": return `${name(event.seat)} takes ${money(event.amount)}`;
    case "ante": return `Everyone puts in ${money(event.stake)}: the pot is ${money(event.pot)}`;
    default: return null;
  }
}
