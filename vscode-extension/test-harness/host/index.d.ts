// Types for host/index.js, the in-extension-host side of the harness (see README.md).

export interface TestOptions {
  /** Fails the test when it takes longer (default 20000 ms). */
  timeoutMs?: number;
}

export interface ScreenshotOptions {
  /** How long the runner waits before the shot, so the UI finishes painting (default 500 ms). */
  settleMs?: number;
  /** Open the notification list for the shot (VS Code shows no toasts in this mode). */
  notifications?: boolean;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped?: number;
  /** false for a progress report; the last final report makes the closing line. */
  final?: boolean;
  /** The test under way, named in the runner's time-out message. */
  running?: string | null;
}

/** Geometry of the first element matching `selector` in the workbench or a webview. */
export declare function element(
  selector: string,
): Promise<
  { found: false } | { found: true; scrollTop: number; scrollHeight: number; clientHeight: number; text: string }
>;

/** Register a test for run(); tests run one at a time in registration order. */
export declare const test: ((name: string, fn: () => unknown, options?: TestOptions) => void) & {
  skip(name: string, fn?: () => unknown): void;
};

/** Run the registered tests, report the counts, reject when any failed. `exports.run = run`. */
export declare function run(): Promise<void>;

/** Save `<screenshots dir>/<name>.png` of the workbench; resolves with its path once written. */
export declare function screenshot(name: string, options?: ScreenshotOptions): Promise<string | undefined>;

/** Send the counts the runner's closing `N passed, N failed` line is made from. */
export declare function report(counts: Counts): Promise<void>;

/** Report a mocha Runner's stats when it ends; returns the runner. */
export declare function reportMocha<R extends { once(event: 'end', fn: () => void): unknown }>(runner: R): R;

/** Resolves once all console output so far has reached the runner. */
export declare function flush(): Promise<void>;

/** True when running under run.mjs. */
export declare function underHarness(): boolean;
