// The board: tiles, dice, whose turn, the controls of the seats this browser holds, and the
// live feed that shows every other player's steps as they happen. The server decides what is
// legal and rolls the dice; the board only shows what it answers, in the server's words (the
// game's title, its rules and each event's sentence are sent with the state).
//
// Its parts, in board/: state (what the parts share), seats (who holds which seat),
// playback (opening a game, its events step by step, the live feed), draw (the board
// itself), moments (a shut box, a round's end, the match's end), input (buttons and keys),
// coach (hint, coach line, personal best).

export { init, rollNow } from "./board/input.js";
export { open, close, receive, isOpen } from "./board/playback.js";
