# linkwatch %preun: on erase ($1 = 0), stop and disable the unit (as %systemd_preun does).
if [ "$1" -eq 0 ] && [ -d /run/systemd/system ]; then
    systemctl --no-reload disable --now linkwatch.service >/dev/null 2>&1 || :
fi
exit 0
