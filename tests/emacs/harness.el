;;; harness.el --- drive a real batch Emacs + eglot against acp-editor  -*- lexical-binding: t -*-

;; Loaded before docs/emacs.md's block and a scenario file (tests/emacs/test_emacs.py). Batch Emacs
;; has no user: this file plays one. It answers the minibuffer from a script (and fails on any
;; question nobody scripted), records what the echo area shows, runs the idle timers a pausing
;; user would let run, and writes every check as JSON for pytest to read.

(require 'cl-lib)
(require 'json)
(require 'package)
;; What Emacs does before a user's init.el (which -q skips): activate installed packages, here
;; Debian's elpa-eglot.
(package-initialize)
(require 'subr-x)

(defvar acp-test-result-file (getenv "ACP_TEST_RESULT"))
(defvar acp-test-workspace (file-name-as-directory (getenv "ACP_TEST_WORKSPACE")))
(defvar acp-test-checks nil "Every check: (NAME OK DETAIL), newest first.")
(defvar acp-test-facts nil "Values for pytest (pids, times), an alist.")
(defvar acp-test-messages nil "What the echo area showed, newest first.")
(defvar acp-test-questions nil "Every minibuffer question: plists, newest first.")
(defvar acp-test-answers nil
  "Scripted answers, in order: strings for `completing-read', t/nil for yes/no questions.")

;; The command line for acp-editor comes from pytest (the venv's sidecar, the agent to test).
(defvar acp-editor-command (split-string-and-unquote (getenv "ACP_TEST_COMMAND")))

(defun acp-test-check (name ok &optional detail)
  (push (list name (and ok t) (format "%s" (or detail ""))) acp-test-checks)
  ok)

(defun acp-test-fact (name value)
  (push (cons name value) acp-test-facts))

(defun acp-test-finish (&optional failure)
  "Write the results and leave Emacs."
  (when failure (acp-test-check "finished" nil failure))
  (let ((json-encoding-pretty-print nil))
    (with-temp-file acp-test-result-file
      (insert (json-encode
               `((checks . ,(vconcat (mapcar (lambda (c) (vconcat c)) (reverse acp-test-checks))))
                 (facts . ,acp-test-facts)
                 (messages . ,(vconcat (reverse acp-test-messages)))
                 (questions . ,(vconcat (mapcar (lambda (q) (json-encode q))
                                                (reverse acp-test-questions)))))))))
  (kill-emacs (if failure 1 0)))

;; A question nobody scripted, an error or a hang ends the run with what was seen so far.
(run-at-time (string-to-number (or (getenv "ACP_TEST_WATCHDOG") "60")) nil
             (lambda () (acp-test-finish "watchdog: the scenario took too long")))

(defun acp-test--next-answer (question)
  "The next scripted answer: a value, `:prefilled' (the user presses RET on the pre-filled
text), `:default' (RET on an empty minibuffer) or a function of QUESTION's plist."
  (push question acp-test-questions)
  (unless acp-test-answers
    (acp-test-finish (format "a question nobody scripted: %S" question)))
  (let ((answer (pop acp-test-answers)))
    (cond ((eq answer :prefilled) (plist-get question :prefilled))
          ((eq answer :default) (plist-get question :default))
          ((functionp answer) (funcall answer question))
          (t answer))))

(defun acp-test-choice (regexp)
  "An answer: the first offered choice matching REGEXP."
  (lambda (question)
    (or (cl-find-if (lambda (c) (string-match-p regexp c)) (plist-get question :choices))
        (acp-test-finish (format "no choice matches %s in %S" regexp question)))))

(advice-add 'completing-read :override
            (lambda (prompt collection &optional _pred _require initial _hist default &rest _)
              (acp-test--next-answer
               (list :prompt (substring-no-properties prompt)
                     :choices (vconcat (all-completions "" collection))
                     :prefilled (or initial :null)
                     :default (or default :null)))))
(advice-add 'y-or-n-p :override
            (lambda (prompt) (acp-test--next-answer (list :prompt prompt :yes-or-no t))))
(advice-add 'yes-or-no-p :override
            (lambda (prompt) (acp-test--next-answer (list :prompt prompt :yes-or-no t))))

(advice-add 'message :around
            (lambda (orig format-string &rest args)
              (let ((text (and format-string (apply #'format-message format-string args))))
                (when text (push (substring-no-properties text) acp-test-messages))
                (apply orig format-string args))))

(defun acp-test--run-idle-timers (idle)
  "Run the idle timers due after IDLE seconds of no input, as a real Emacs would."
  (dolist (timer (copy-sequence timer-idle-list))
    (when (and (memq timer timer-idle-list)
               (<= (float-time (timer--time timer)) idle))
      (timer-event-handler timer))))

(defun acp-test-wait (what predicate &optional timeout)
  "Let Emacs run (process output, timers, idle timers) until PREDICATE holds."
  (let* ((start (float-time))
         (deadline (+ start (or timeout 20))))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (acp-test--run-idle-timers (- (float-time) start)))
    (or (funcall predicate)
        (acp-test-finish (format "timed out waiting for %s" what)))))

(defun acp-test-message-matching (regexp)
  (cl-find-if (lambda (m) (string-match-p regexp m)) acp-test-messages))

(defun acp-test-open (file)
  "Visit FILE of the workspace and start eglot in it (acp-editor, from the docs' block)."
  (let ((buffer (find-file-noselect (expand-file-name file acp-test-workspace))))
    (set-buffer buffer)
    (call-interactively #'eglot)
    (acp-test-wait "eglot to connect"
                   (lambda () (with-current-buffer buffer (eglot-current-server))))
    buffer))

(defun acp-test-server-process (buffer)
  (with-current-buffer buffer (jsonrpc--process (eglot-current-server))))

(defun acp-test-descendants (pid)
  "Every live process below PID."
  (let ((all (mapcar (lambda (p) (cons p (alist-get 'ppid (process-attributes p))))
                     (list-system-processes)))
        (found nil) (frontier (list pid)))
    (while frontier
      (let ((parent (pop frontier)))
        (dolist (entry all)
          (when (and (eql (cdr entry) parent)
                     (not (equal (alist-get 'state (process-attributes (car entry))) "Z")))
            (push (car entry) found)
            (push (car entry) frontier)))))
    found))

(defun acp-test-run (scenario)
  "Run SCENARIO, a function; any error ends the run as a failure."
  (condition-case err
      (progn (funcall scenario) (acp-test-finish))
    (error (acp-test-finish (format "error: %S" err)))))

;;; harness.el ends here
