/** Following every session (issue 28): the mark of the session in front reads as it always did;
 *  a session's that is not in front names its agent and session; the follow toggle's words;
 *  the store keeps `allSessions` from acp/setFollow's answer. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { followLabel, followToggle } from "../src/core/follow";
import { emptySnapshot } from "../src/core/reducer";
import { Store } from "../src/core/store";
import type { FollowParams, SessionSnapshot } from "../src/wire";

function session(sessionId: string, agent: string, prompt: string): SessionSnapshot {
  const s: SessionSnapshot = { ...emptySnapshot(sessionId, 1), agent };
  s.entries.push({ kind: "message", role: "user", messageId: null, content: [{ type: "text", text: prompt }] });
  return s;
}

/** A Claude session in front and a Codex session behind it. */
function store(): Store {
  const st = new Store();
  st.loadSnapshot({
    agent: { agent: "claude", state: "ready", command: ["claude"] },
    agents: [],
    sessions: [session("s1", "claude", "fix the parser"), session("s2", "codex", "try the rewrite")],
    currentSessionId: "s1",
    follow: true,
    terminals: [],
    review: [],
    reviewGroups: [],
  });
  return st;
}

const follow = (sessionId: string, agent: string | undefined, reason: FollowParams["reason"]): FollowParams => ({
  sessionId,
  agent: agent ?? "", // "": no name given, as from a server that left it out
  uri: "file:///w/a.py",
  range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
  reason,
});

test("the session in front's mark reads as before; another session's names its agent and session", () => {
  const st = store();
  assert.deepEqual(followLabel(st, follow("s1", "claude", "read")), {
    sessionId: "s1",
    text: "  ◆ agent reading",
    hover: "The agent is working here",
    background: false,
  });
  assert.deepEqual(followLabel(st, follow("s2", "codex", "write")), {
    sessionId: "s2",
    text: '  ◆ codex writing · "try the rewrite"',
    hover: 'codex is writing here, in session "try the rewrite" (not in front: ACP: Switch Session… brings it)',
    background: true,
  });
  assert.equal(followLabel(st, follow("s2", "codex", "location")).hover.split(",")[0], "codex is here");
  // The sidecar names the agent; without it (an older sidecar) the session's agent is used.
  assert.equal(followLabel(st, follow("s2", undefined, "read")).text, '  ◆ codex reading · "try the rewrite"');
  // Brought to the front, the same session's mark reads as the front one's; the other is named.
  st.select("s2");
  assert.equal(followLabel(st, follow("s2", "codex", "read")).background, false);
  assert.equal(followLabel(st, follow("s1", "claude", "read")).text, '  ◆ claude reading · "fix the parser"');
  // A session the mirror does not know (yet) is not labelled as another's.
  assert.equal(followLabel(st, follow("s9", "codex", "read")).background, false);
});

test("the follow toggle says whether every session is followed; the store keeps allSessions", () => {
  assert.deepEqual(followToggle(false, true).text, "$(eye-closed) Follow agent");
  assert.equal(followToggle(true, false).text, "$(eye) Follow agent");
  assert.equal(followToggle(true, true).text, "$(eye) Follow all sessions");
  assert.match(followToggle(true, true).tooltip, /every session's agent/);
  const st = store();
  assert.equal(st.followAll, false);
  const events: string[] = [];
  st.subscribe((e) => events.push(e.kind));
  st.setFollow(true, true);
  assert.equal(st.followAll, true);
  st.setFollow(false);
  assert.deepEqual([st.follow, st.followAll], [false, true]);
  assert.deepEqual(events, ["follow", "follow"]);
});
