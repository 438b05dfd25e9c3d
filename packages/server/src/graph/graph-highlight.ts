/** A pair of node names to highlight: an agent calling a tool, a tool answering an agent... */
export type GraphHighlight = readonly [from: string, to: string];
