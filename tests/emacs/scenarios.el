;;; scenarios.el --- what a user does in Emacs with acp-editor  -*- lexical-binding: t -*-

;; Each function is one run of batch Emacs (tests/emacs/test_emacs.py picks it); the checks it
;; records are asserted in pytest, which also checks the processes afterwards.

(require 'cl-lib)

(defconst acp-test-edit-line "print(\"edited by the demo agent\")\n")
(defconst acp-test-hunk-mark "  # reviewed by the demo agent")
(defconst acp-test-note "# my unsaved note\n")
(defconst acp-test-late-note "    # typed just before asking\n")

(defun acp-test-disk-text (buffer)
  (with-temp-buffer
    (insert-file-contents (buffer-file-name buffer))
    (buffer-string)))

(defun acp-test-count (needle haystack)
  (let ((count 0) (start 0))
    (while (string-match (regexp-quote needle) haystack start)
      (setq count (1+ count) start (match-end 0)))
    count))

(defun acp-test-long-prompt (buffer)
  "A turn longer than the 10 s Emacs gives a request: promptAsync answers at once."
  (let* ((start (float-time))
         (_ (with-current-buffer buffer (acp-editor-prompt "wait")))
         (returned (- (float-time) start))
         (ended (acp-test-turn-end "wait"))
         (took (- (float-time) start)))
    (acp-test-check "the prompt command returns at once" (< returned 5) returned)
    (acp-test-check "the turn outlives Emacs's 10 s request timeout" (> took 10.5) took)
    (acp-test-check "the reply and the stop reason are shown in the echo area"
                    (and (string-match-p "Done: wait\\." ended)
                         (string-match-p "turn ended: end_turn" ended))
                    ended)))

(defun acp-test-turn-end (prompt)
  (acp-test-next-message (format "the end of the turn %S" prompt) "turn ended" 40))

(defun acp-test-next-message (what regexp &optional timeout)
  "Wait for a message matching REGEXP and take it off the list, so the next wait needs a new one."
  (acp-test-wait what (lambda () (acp-test-message-matching regexp)) timeout)
  (let ((found (acp-test-message-matching regexp)))
    (setq acp-test-messages (delete found acp-test-messages))
    found))

(defun acp-test-look (buffer)
  "The agent sees the unsaved note through the editor MCP server (MCP over ACP): no plugin."
  (with-current-buffer buffer (acp-editor-prompt "look"))
  (let ((ended (acp-test-turn-end "look")))
    (acp-test-check "the agent saw the unsaved note through the editor server"
                    (and (string-search (string-trim acp-test-note) ended)
                         (string-match-p "1 with unsaved changes" ended))
                    ended)))

(defun acp-test-rejected-by-return (buffer)
  "The permission question's pre-filled choice is a reject: RET allows nothing."
  (let ((before (with-current-buffer buffer (buffer-string))))
    (setq acp-test-answers (list :prefilled))
    (with-current-buffer buffer (acp-editor-prompt "edit"))
    (acp-test-turn-end "edit")
    (let ((question (car acp-test-questions)))
      (acp-test-check "the permission question offers the agent's options"
                      (member "Allow" (append (plist-get question :choices) nil)) question)
      (acp-test-check "its pre-filled choice is a reject"
                      (string-match-p "\\`Reject" (plist-get question :prefilled)) question))
    (acp-test-check "RET left the buffer as it was"
                    (equal before (with-current-buffer buffer (buffer-string))))))

(defun acp-test-two-writes (buffer original)
  "Two agent writes to a buffer with unsaved text in one turn: no question, nothing lost."
  (let ((asked (length acp-test-questions)))
    ;; Typed right before the prompt: eglot would report it only once Emacs is idle; the
    ;; setup's commands send it first, and the agent's writes are merged into it.
    (with-current-buffer buffer
      (goto-char (point-min))
      (forward-line 5)
      (insert acp-test-late-note))
    (setq acp-test-answers (list (acp-test-choice "\\`Allow\\'") (acp-test-choice "\\`Allow\\'")))
    (with-current-buffer buffer (acp-editor-prompt "edit hunks"))
    (acp-test-turn-end "edit hunks")
    (let ((text (with-current-buffer buffer (buffer-string)))
          (new (butlast acp-test-questions asked)))
      (acp-test-check "the only questions were the two permissions"
                      (and (= (length new) 2)
                           (cl-notany (lambda (q) (plist-get q :yes-or-no)) new))
                      new)
      (acp-test-check "both writes are in the buffer"
                      (and (= (acp-test-count acp-test-edit-line text) 2)
                           (= (acp-test-count acp-test-hunk-mark text) 1))
                      text)
      (acp-test-check "the unsaved text is kept, also what was typed just before"
                      (and (string-search acp-test-note text)
                           (string-search acp-test-late-note text))
                      text)
      (acp-test-check "the buffer was saved after the edits"
                      (and (not (buffer-modified-p buffer))
                           (equal (acp-test-disk-text buffer) text)))
      (acp-test-check "each write is one undo step" (acp-test-undo-steps buffer original) text))))

(defun acp-test-undo-steps (buffer original)
  "Undo the two writes one step at a time, then put them back."
  (with-current-buffer buffer
    (let* ((both (buffer-string))
           ;; As the `undo' command does: start, step over the boundary at the head, undo one.
           (one (progn (undo-start) (undo-more 1) (undo-more 1) (buffer-string)))
           (none (progn (undo-more 1) (buffer-string))))
      (acp-test-fact "undo_steps" (vector both one none))
      (erase-buffer)
      (insert both)
      (basic-save-buffer)
      (and (= (acp-test-count acp-test-edit-line one) 1)
           (= (acp-test-count acp-test-hunk-mark one) 0)
           (string-search acp-test-note one)
           (equal none (acp-test-with-notes original))))))

(defun acp-test-with-notes (text)
  "TEXT with the user's two notes, as typed."
  (with-temp-buffer
    (insert text)
    (goto-char (point-min))
    (forward-line 3)
    (insert acp-test-note)
    (goto-char (point-min))
    (forward-line 5)
    (insert acp-test-late-note)
    (buffer-string)))

(defun acp-test-review (buffer)
  "The pending hunks are diagnostics; \"Reject hunk\" on the first takes it back."
  (with-current-buffer buffer
    (acp-test-wait "review diagnostics in flymake" (lambda () (flymake-diagnostics)) 10)
    (acp-test-fact "diagnostics" (vconcat (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
    (goto-char (point-min))
    (setq acp-test-answers (list (acp-test-choice "\\`Reject hunk\\'")))
    ;; M-x from the keyboard: eglot then asks in the minibuffer, not with a popup menu.
    (let ((last-nonmenu-event ?\r))
      (eglot-code-actions (point) (line-end-position) nil t))
    (acp-test-wait "the rejected hunk to leave the buffer"
                   (lambda () (not (string-search acp-test-hunk-mark (buffer-string)))))
    (let ((text (buffer-string)))
      (acp-test-check "reject took back that hunk only, the unsaved note kept"
                      (and (= (acp-test-count acp-test-edit-line text) 2)
                           (string-search acp-test-note text))
                      text)
      (acp-test-wait "the buffer saved after the revert"
                     (lambda () (equal (acp-test-disk-text buffer) (buffer-string))) 10))))

(defun acp-test-turns ()
  "A long turn, a look at unsaved text, a permission answered with RET, two writes, review."
  (let* ((buffer (acp-test-open "hello.py"))
         (original (with-current-buffer buffer (buffer-string))))
    (acp-test-long-prompt buffer)
    (with-current-buffer buffer
      (goto-char (point-min))
      (forward-line 3)
      (insert acp-test-note))
    (acp-test-look buffer)
    (acp-test-rejected-by-return buffer)
    (acp-test-two-writes buffer original)
    (acp-test-review buffer)
    (with-current-buffer buffer (eglot-shutdown (eglot-current-server)))))

(defun acp-test-processes (buffer)
  "Wait for the stubborn agent, its child and the reaper below the sidecar; record them all."
  (let ((sidecar (process-id (acp-test-server-process buffer))))
    (with-current-buffer buffer (acp-editor--command "acp.status"))
    (acp-test-wait "the agent, its child and the reaper"
                   (lambda () (>= (length (acp-test-descendants sidecar)) 3)))
    (acp-test-fact "pids" (vconcat (cons sidecar (acp-test-descendants sidecar))))
    sidecar))

(defun acp-test-shutdown ()
  "eglot-shutdown gives the server 1.5 s, then kills it: nothing may be left."
  (let* ((buffer (acp-test-open "hello.py"))
         (_ (acp-test-processes buffer))
         (start (float-time)))
    (with-current-buffer buffer (eglot-shutdown (eglot-current-server)))
    (acp-test-fact "shutdown_seconds" (- (float-time) start))
    (acp-test-check "shutdown was answered within eglot's 1.5 s" t)))

(defun acp-test-killed ()
  "The sidecar SIGKILLed (as eglot does to a slow server): nothing may be left."
  (let* ((buffer (acp-test-open "hello.py"))
         (sidecar (acp-test-processes buffer))
         (process (acp-test-server-process buffer)))
    (signal-process sidecar 'SIGKILL)
    (acp-test-wait "the sidecar to die" (lambda () (not (process-live-p process))))
    (acp-test-check "the sidecar was killed" (not (process-live-p process)))))

(defconst acp-test-first-words "hello from the first session")

(defun acp-test-status (buffer)
  (with-current-buffer buffer (acp-editor--command "acp.status")))

(defun acp-test-sessions ()
  "A second session from `acp-editor-new-session', then back to the first with
`acp-editor-switch-session': acp.status and `acp-editor-transcript' follow."
  (let* ((buffer (acp-test-open "hello.py"))
         (_ (with-current-buffer buffer (acp-editor-prompt acp-test-first-words)))
         (_ (acp-test-turn-end acp-test-first-words))
         (first (plist-get (acp-test-status buffer) :currentSessionId)))
    (setq acp-test-answers (list :default))  ; RET: the server's own agent
    (with-current-buffer buffer (call-interactively #'acp-editor-new-session))
    (let ((question (car acp-test-questions)))
      (acp-test-check "new-session offers the agents, the server's own (the demo) by default"
                      (and (equal (plist-get question :choices) ["demo"])
                           (equal (plist-get question :default) "demo"))
                      question))
    (acp-test-next-message "the new session" "(demo) is current")
    (let* ((status (acp-test-status buffer))
           (second (plist-get status :currentSessionId)))
      (acp-test-check "the new session is current, the first still open"
                      (and (stringp first) (stringp second) (not (equal first second))
                           (equal (sort (append (plist-get status :sessions) nil) #'string<)
                                  (sort (list first second) #'string<)))
                      status)
      (setq acp-test-answers (list (acp-test-choice (concat "\\`" (regexp-quote first) " "))))
      (with-current-buffer buffer (call-interactively #'acp-editor-switch-session))
      (acp-test-check "switch-session shows each session with its agent"
                      (equal (sort (append (plist-get (car acp-test-questions) :choices) nil)
                                   #'string<)
                             (sort (list (format "%s (demo)" first) (format "%s (demo)" second))
                                   #'string<))
                      (car acp-test-questions)))
    (let ((status (acp-test-status buffer)))
      (acp-test-check "acp.status: the first session is current again"
                      (equal (plist-get status :currentSessionId) first) status))
    (let* ((result (with-current-buffer buffer (acp-editor-transcript)))
           (path (plist-get result :path)))
      (acp-test-wait "the transcript shown"
                     (lambda () (let ((shown (find-buffer-visiting path)))
                                  (and shown (get-buffer-window shown)))))
      (acp-test-check "the transcript shown is the first session's"
                      (and (equal (plist-get result :sessionId) first)
                           (with-current-buffer (find-buffer-visiting path)
                             (string-search acp-test-first-words (buffer-string))))
                      result))
    (acp-test-worktree buffer)
    (with-current-buffer buffer (eglot-shutdown (eglot-current-server)))))

(defun acp-test-worktree (buffer)
  "C-u `acp-editor-new-session': a worktree session; bring back (nothing yet), then discard
it, answering the sidecar's own question (asked past eglot's 10 s limit: no timeout)."
  (setq acp-test-answers (list :default))
  (with-current-buffer buffer
    (let ((current-prefix-arg '(4))) (call-interactively #'acp-editor-new-session)))
  (let* ((started (acp-test-next-message "the worktree session" "(demo) is current\\|failed"))
         (sid (plist-get (acp-test-status buffer) :currentSessionId)))
    (acp-test-check "new-session with C-u: a worktree session, current"
                    (string-search (format "session %s (demo) is current" sid) started) started)
    (with-current-buffer buffer (call-interactively #'acp-editor-bring-back))
    (let ((brought (acp-test-next-message "the bring-back" "to review\\|failed")))
      (acp-test-check "bring-back: nothing changed in the worktree yet"
                      (equal brought "acp-editor: 0 file(s) to review") brought))
    (setq acp-test-answers (list (acp-test-choice "\\`Discard\\'")))
    (with-current-buffer buffer (call-interactively #'acp-editor-discard-worktree))
    (let ((discarded (acp-test-next-message "the discard" "is discarded\\|is kept\\|failed"))
          (question (car acp-test-questions)))
      (acp-test-check "discard: the sidecar asked, \"Keep the worktree\" pre-filled"
                      (and (string-search sid (plist-get question :prompt))
                           (equal (plist-get question :prefilled) "Keep the worktree"))
                      question)
      (acp-test-check "the current session's worktree is discarded"
                      (equal discarded (format "acp-editor: the worktree of %s is discarded" sid))
                      discarded))))

;; Signing in (the demo agent's --require-login: prompts fail until its login program ran).

(defconst acp-test-terminal-method "\\`Log in from a terminal\\'")
(defconst acp-test-notice "acp-editor: Rate limit almost reached: The demo agent has used 90%")

(defun acp-test-command-line (question)
  "The command line a sign-in question gives: its last line, before eglot's own."
  (let ((lines (split-string (plist-get question :prompt) "\n")))
    (nth (- (length lines) 2) lines)))

(defun acp-test-sign-in-at-terminal (name)
  "An answer to the question with the command to run: the user runs it in a shell, types
NAME, then chooses \"I have signed in\"."
  (lambda (question)
    (acp-test-check "the question offers \"Not now\" first, then \"I have signed in\""
                    (equal (plist-get question :choices) ["Not now" "I have signed in"])
                    question)
    (let ((line (acp-test-command-line question))
          (typed (make-temp-file "acp-test-typed" nil nil (concat name "\n"))))
      (with-temp-buffer
        (let ((status (call-process shell-file-name typed t nil shell-command-switch line)))
          (acp-test-check (format "the command line given ran, %s typed into it" name)
                          (and (eql status 0)
                               (string-search (format "Signed in as %s." name) (buffer-string)))
                          (format "%s: exit %s: %s" line status (buffer-string))))))
    "I have signed in"))

(defun acp-test-sign-in ()
  "The first prompt needs a sign-in: the user picks the terminal sign-in, runs the command line
the next question gives (typing a name), answers \"I have signed in\", and the prompt's reply
arrives; the agent's notice is a message. Then `acp-editor-sign-in' signs in on demand."
  (let ((buffer (acp-test-open "hello.py")))
    (setq acp-test-answers (list (acp-test-choice acp-test-terminal-method)
                                 (acp-test-sign-in-at-terminal "Emma")))
    (with-current-buffer buffer (acp-editor-prompt "notice"))
    (let ((ended (acp-test-turn-end "notice"))
          (choose (car (last acp-test-questions))))
      (acp-test-check "the first question offers the agent's sign-in methods by name"
                      (string-search "Log in from a terminal (a command in a terminal)"
                                     (plist-get choose :prompt))
                      choose)
      (acp-test-check "the prompt's reply arrives once signed in"
                      (string-match-p "Done: notice\\." ended) ended))
    (acp-test-check "the agent's notice is a message" (acp-test-message-matching acp-test-notice)
                    acp-test-messages)
    (setq acp-test-answers (list (acp-test-choice acp-test-terminal-method)
                                 (acp-test-sign-in-at-terminal "Noor")))
    (with-current-buffer buffer (call-interactively #'acp-editor-sign-in))
    (let ((said (acp-test-next-message "the sign-in on demand" "signed in to\\|failed")))
      (acp-test-check "acp-editor-sign-in says it is done"
                      (equal said "acp-editor: signed in to default (demo-terminal-login)") said))
    (with-current-buffer buffer (eglot-shutdown (eglot-current-server)))))

;;; scenarios.el ends here
