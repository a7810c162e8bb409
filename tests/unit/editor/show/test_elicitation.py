"""Which elicitation modes an editor is offered for, and the consent question's words."""

from __future__ import annotations

from acp_editor.agent.link.handshake import initialize_params
from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.show.elicitation import modes, page_message


def test_forms_need_the_elicit_feature_and_pages_need_show_document() -> None:
    assert modes(ClientFeatures()) == []
    assert modes(ClientFeatures(show_document=True)) == ["url"]
    assert modes(ClientFeatures(rich={"elicit"})) == ["form"]
    assert modes(ClientFeatures(rich={"elicit"}, show_document=True)) == ["form", "url"]


def test_the_agent_is_offered_exactly_those_modes() -> None:
    caps = initialize_params(1, ["url"])["clientCapabilities"]
    assert caps["elicitation"] == {"url": {}}
    assert "elicitation" not in initialize_params(1, [])["clientCapabilities"]


def test_the_consent_question_names_the_agent_the_site_and_the_whole_address() -> None:
    url = "http://user@10.0.0.1:8080/login?next=/admin"
    text = page_message({"agent": "Codex", "message": "Log in, please."}, url)
    assert text.startswith("Codex asks you to open a web page in your browser.")
    assert "Log in, please." in text
    assert "Site: 10.0.0.1" in text and f"Address: {url}" in text
    assert "Careful: the address has a user name before the host" in text
