/**
 * Build the web UI with Vite when its build is missing or older than its sources (test set-ups
 * in a source checkout). Does nothing in a published copy. Returns true when it built.
 */
export declare function ensureWebUiBuilt(): boolean;
