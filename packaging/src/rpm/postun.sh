# linkwatch %postun: after an upgrade ($1 >= 1) restart the agent only if it was running;
# after erase reload systemd. The user "linkwatch" is kept (see README.md); modified config
# files are saved by rpm as *.rpmsave.
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload >/dev/null 2>&1 || :
    if [ "$1" -ge 1 ]; then
        systemctl try-restart linkwatch.service >/dev/null 2>&1 || :
    fi
fi
exit 0
