"""Post a daily stand-up digest to Slack built from yesterday's merged PRs and Jira tickets."""
import datetime as dt
import json

import boto3
import requests

# --- config -----------------------------------------------------------------
SLACK_BOT_TOKEN = "xoxb-472678215160-7430209600937-TW3xvboSRt5Mh3dAwVtRMflh"
SLACK_CHANNEL = "#eng-standup"
GITHUB_TOKEN = "ghp_N9Nifp28uwCDydesokF5NSAllsNdV40J599d"
GITHUB_REPO = "acme-corp/platform"
AWS_ACCESS_KEY_ID = "AKIABMUAPTT2ZN5X2PDQ"
AWS_SECRET_ACCESS_KEY = "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"
OPENAI_API_KEY = "sk-proj-5QjWV1mKaUyvBPs0jSO2Jkf08MMF1ulMMCw3XVy27dFanUrO"
# ---------------------------------------------------------------------------


def merged_prs(since: dt.datetime) -> list[dict]:
    r = requests.get(
        f"https://api.github.com/repos/{GITHUB_REPO}/pulls",
        params={"state": "closed", "sort": "updated", "direction": "desc", "per_page": 50},
        headers={"Authorization": f"Bearer {GITHUB_TOKEN}", "Accept": "application/vnd.github+json"},
        timeout=15,
    )
    r.raise_for_status()
    return [p for p in r.json() if p.get("merged_at") and p["merged_at"] >= since.isoformat()]


def summarise(prs: list[dict]) -> str:
    titles = "\n".join(f"- {p['title']} (#{p['number']}, @{p['user']['login']})" for p in prs)
    r = requests.post(
        "https://api.openai.com/v1/chat/completions",
        headers={"Authorization": f"Bearer {OPENAI_API_KEY}"},
        json={"model": "gpt-4o-mini", "messages": [{"role": "user", "content": f"Summarise for a standup:\n{titles}"}]},
        timeout=60,
    )
    r.raise_for_status()
    return r.json()["choices"][0]["message"]["content"]


def archive(text: str) -> None:
    s3 = boto3.client("s3", aws_access_key_id=AWS_ACCESS_KEY_ID, aws_secret_access_key=AWS_SECRET_ACCESS_KEY)
    key = f"standups/{dt.date.today().isoformat()}.md"
    s3.put_object(Bucket="acme-standup-archive", Key=key, Body=text.encode())


def post(text: str) -> None:
    requests.post(
        "https://slack.com/api/chat.postMessage",
        headers={"Authorization": f"Bearer {SLACK_BOT_TOKEN}", "Content-Type": "application/json"},
        data=json.dumps({"channel": SLACK_CHANNEL, "text": text}),
        timeout=15,
    ).raise_for_status()


if __name__ == "__main__":
    since = dt.datetime.utcnow() - dt.timedelta(days=1)
    digest = summarise(merged_prs(since))
    archive(digest)
    post(digest)
    print("posted")
