# linkwatch %pre: the service user, and the Ascend driver group if missing
# (linkwatch.service has SupplementaryGroups=HwHiAiUser; a missing group fails the start).
getent group HwHiAiUser >/dev/null || groupadd -r HwHiAiUser
getent group linkwatch >/dev/null || groupadd -r linkwatch
getent passwd linkwatch >/dev/null || \
    useradd -r -M -g linkwatch -d /nonexistent -s /sbin/nologin -c "linkwatch agent" linkwatch
exit 0
