;;; lsp_mode.el --- a user of lsp-mode instead of eglot  -*- lexical-binding: t -*-

;; Loaded after harness.el and docs/emacs.md's lsp-mode block (tests/emacs/test_emacs.py):
;; one prompt with a permission question, then `lsp-workspace-shutdown', which lsp-mode gives
;; 0.5 s before it says "Timeout while sending shutdown request" and kills the server.

(require 'cl-lib)

(defun acp-test-lsp-open (file)
  "Visit FILE of the workspace and start lsp-mode in it (acp-editor, from the docs' block)."
  (let ((buffer (find-file-noselect (expand-file-name file acp-test-workspace))))
    (set-buffer buffer)
    ;; What a user answers once, the first time: the project's root is the workspace.
    (lsp-workspace-folders-add (directory-file-name acp-test-workspace))
    (lsp)
    (acp-test-wait "lsp-mode to connect"
                   (lambda ()
                     (with-current-buffer buffer
                       (ignore-errors
                         (eq (lsp--workspace-status (acp-editor--workspace)) 'initialized)))))
    buffer))

(defun acp-test-lsp-mode ()
  "A prompt whose permission question is allowed, the turn's end, then the shutdown."
  (let* ((buffer (acp-test-lsp-open "hello.py"))
         (workspace (with-current-buffer buffer (acp-editor--workspace)))
         (pid (process-id (lsp--workspace-proc workspace))))
    (setq acp-test-answers (list (acp-test-choice "\\`Allow\\'")))
    (with-current-buffer buffer (acp-editor-prompt "edit"))
    (let ((ended (acp-test-next-message "the turn's end" "turn ended" 20))
          (question (car acp-test-questions)))
      (acp-test-check "the permission question came to the minibuffer"
                      (string-match-p "The agent asks permission" (plist-get question :prompt))
                      question)
      (acp-test-check "the turn's end says how to undo it"
                      (string-match-p "turn ended: end_turn.*acp\\.restoreCheckpoint \\[[0-9]+\\]"
                                      ended)
                      ended)
      (acp-test-check "the agent's edit reached the file"
                      (string-search acp-test-edit-line (acp-test-disk-text buffer))))
    (acp-test-fact 'pids (vconcat (cons pid (acp-test-descendants pid))))
    (let ((start (float-time)))
      (lsp-workspace-shutdown workspace)
      (acp-test-fact 'shutdown_seconds (- (float-time) start)))
    (acp-test-check "lsp-mode's shutdown had its answer in time"
                    (not (acp-test-message-matching "Timeout while sending shutdown"))
                    acp-test-messages)))

;;; lsp_mode.el ends here
