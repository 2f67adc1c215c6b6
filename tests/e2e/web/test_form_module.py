"""The form helper (web/js/forms.js) on its own, in the browser that runs it."""

from __future__ import annotations

from typing import Any

from tests.e2e.web.test_modules import open_site

FORMS = """async () => {
  const { ApiError } = await import("/static/web/js/api.js");
  const { onSubmit, onClick, Refusal } = await import("/static/web/js/forms.js");
  const form = document.createElement("form");
  form.innerHTML = '<input name="name"><button type="submit">Send</button>' +
    '<button type="button">Other</button><p class="form-error"></p>';
  document.body.append(form);
  const error = form.querySelector(".form-error");
  const submit = form.querySelector("button[type=submit]");
  const log = [];
  let release;
  let outcome;
  onSubmit(form, {
    error,
    send: () => new Promise((resolve, reject) => {
      log.push(["sending", submit.disabled, error.textContent]);
      release = () => (outcome === "refuse"
        ? reject(new ApiError(400, "invalid", "Refused.", { fields: { name: ["Too long."] } }))
        : resolve({ id: 7 }));
    }),
    done: (answer) => log.push(["done", answer.id, submit.disabled]),
  });
  const until = (test) => new Promise((resolve) => {
    const timer = setInterval(() => { if (test()) { clearInterval(timer); resolve(); } }, 5);
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  error.textContent = "an old refusal";
  outcome = "refuse";
  form.requestSubmit();
  await until(() => release);
  release();
  await settle();
  const refused = { text: error.textContent, enabled: !submit.disabled };

  release = null;
  outcome = "accept";
  form.requestSubmit();
  await until(() => release);
  release();
  await settle();

  // A page's own refusal, before anything is sent.
  const button = document.createElement("button");
  document.body.append(button);
  const line = document.createElement("p");
  onClick(button, { error: line, send: () => { throw new Refusal("Give it a name."); } });
  button.click();
  await settle();
  return { log, refused, own: line.textContent, buttonEnabled: !button.disabled,
           other: form.querySelector("button[type=button]").disabled };
}"""


def test_a_form_is_sent_once_refused_in_words_and_enabled_again(page: Any) -> None:
    open_site(page)

    result = page.evaluate(FORMS)

    # While the request is out, the error line is empty and the submit button disabled.
    assert result["log"][0] == ["sending", True, ""]
    assert result["refused"] == {"text": "Too long.", "enabled": True}
    # Accepted: the buttons come back, then `done` has the answer.
    assert result["log"][1:] == [["sending", True, ""], ["done", 7, False]]
    assert result["own"] == "Give it a name."
    assert result["buttonEnabled"] is True
    assert result["other"] is False  # only the submit buttons are held
