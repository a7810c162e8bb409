// Types for host/index.js, the in-extension-host side of the harness (see README.md).

export interface TestOptions {
  /** Fails the test when it takes longer (default 20000 ms). */
  timeoutMs?: number;
}

export interface ScreenshotOptions {
  /** How long the runner waits before the shot, so the UI finishes painting (default 500 ms). */
  settleMs?: number;
  /** Open the notification list for the shot (VS Code shows no toasts in this mode unless
   *  `toasts(true)` asked for them). */
  notifications?: boolean;
  /** Only this region of the viewport (CSS pixels); a negative x or y counts from the right or
   *  bottom edge. */
  clip?: { x: number; y: number; width: number; height: number };
}

/** An element as drawn (see `elements`). */
export interface DrawnElement {
  text: string;
  innerText: string;
  visible: boolean;
  /** Text cut off by CSS (an ellipsis) has scrollWidth > clientWidth. */
  scrollWidth: number;
  clientWidth: number;
  box: { x: number; y: number; width: number; height: number };
  /** What a text field (textarea, input) holds now. */
  value?: string;
  /** Text CSS draws after it (`::after`'s content: an editor decoration's `after.contentText`); '' if none. */
  after: string;
}

/** Every element matching `selector` in the workbench and its webviews ([] outside the harness). */
export declare function elements(selector: string): Promise<DrawnElement[]>;

/** Draw notification toasts as desktop VS Code does (true) or not (false, the default here). */
export declare function toasts(show: boolean): Promise<void>;

/** Resize the window the workbench is drawn in (the runner starts at 1280x800). */
export declare function viewport(width: number, height: number): Promise<void>;

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

/** Press a key combination in the workbench as the user would (playwright's names, e.g.
 *  `Control+Alt+KeyA`): VS Code's keybindings see it where the focus is. */
export declare function press(keys: string): Promise<void>;

/** Type text where the focus is, key by key, as the user would. */
export declare function type(text: string): Promise<void>;

/** Paste files into the first element matching `selector` (a paste event carrying them, as when
 *  the user pastes a screenshot). */
export declare function pasteFiles(
  selector: string,
  files: { name: string; type: string; base64: string }[],
): Promise<void>;
