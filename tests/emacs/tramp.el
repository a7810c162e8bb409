;;; tramp.el --- acp-editor on a remote host through TRAMP  -*- lexical-binding: t -*-

;; Loaded after harness.el, docs/emacs.md's eglot block and scenarios.el for the TRAMP test
;; (tests/emacs/test_emacs.py): the workspace is /ssh:USER@127.0.0.1#PORT:/..., served by the
;; test's sshd (tests/support/sshd.py), and eglot starts acp-editor there, as docs/emacs.md's
;; "Remote files over TRAMP" says.

(require 'tramp)

;; What a user has in ~/.ssh/config (the key, no host-key question) is in the test's own ssh
;; config: ssh reads the passwd entry's home, not $HOME, so TRAMP's ssh is given it with -F,
;; through the options TRAMP inserts in its ssh command line.
(setq tramp-use-ssh-controlmaster-options t
      tramp-ssh-controlmaster-options
      (format "-F %s -o ControlMaster=no" (getenv "ACP_TEST_SSH_CONFIG")))
(setq tramp-verbose 1)  ; its progress messages would crowd out the scenario's in the echo area

(defun acp-test-tramp ()
  "A remote file: eglot runs acp-editor through TRAMP; a prompt's edit reaches its buffer."
  (let* ((buffer (acp-test-open "hello.py"))
         (process (acp-test-server-process buffer)))
    (acp-test-check "the file is remote" (file-remote-p (buffer-file-name buffer))
                    (buffer-file-name buffer))
    (acp-test-check "eglot's server is a TRAMP process"
                    (process-get process 'remote-pid) (process-command process))
    (setq acp-test-answers (list (acp-test-choice "\\`Allow\\'")))
    (with-current-buffer buffer (acp-editor-prompt "edit"))
    (acp-test-turn-end "edit")
    (let ((text (with-current-buffer buffer (buffer-string))))
      (acp-test-check "the agent's edit is in the remote buffer, saved to the file"
                      (and (= (acp-test-count acp-test-edit-line text) 1)
                           (not (buffer-modified-p buffer))
                           (equal (acp-test-disk-text buffer) text))
                      text))
    (let ((start (float-time)))
      (with-current-buffer buffer (eglot-shutdown (eglot-current-server)))
      (acp-test-fact "shutdown_seconds" (- (float-time) start)))
    (tramp-cleanup-all-connections)))

;;; tramp.el ends here
