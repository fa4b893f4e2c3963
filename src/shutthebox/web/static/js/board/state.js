// The board's state, shared by its parts: the game shown, what playback has shown of it, the
// tiles picked, and whether an action or a playback is under way.

export const view = {
  game: null,           // the last state shown, with every event applied
  feed: null,           // the live connection
  queue: Promise.resolve(),
  selected: new Set(),  // tiles picked for the pending move
  busy: false,          // an action request is in flight
  playing: false,       // new events are being shown step by step
  board: [],            // open tiles as shown during playback
  lastEnd: null,        // the turn that just ended, shown until the next player acts
  lastRoll: null,       // the last dice rolled
  moveFocus: false,     // the next render puts focus on the next action
  coachAt: -1,          // event count the coach line was computed for
  justOver: false,
  hinted: new Set(),    // the tiles of the hint's best move, ringed on the board      // the game ended while shown: its result may celebrate
};

/** Every tile of the state's box, as the board is at a turn's start. */
export function fullBoard(state) {
  return Array.from({ length: state.rules.tiles }, (_, i) => i + 1);
}

/** Whether the tiles picked make one of the legal moves the server sent. */
export function selectionIsLegal() {
  const pick = [...view.selected].sort((a, b) => a - b).join(",");
  return view.game.pending.legal.some((move) => [...move].sort((a, b) => a - b).join(",") === pick);
}
