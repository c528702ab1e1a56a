"""Tables over the network: a websocket table server, its JSON protocol, and the client.

:mod:`.protocol` holds the messages and the wire forms of a view and of the rules,
:mod:`.address` a table's address and what a host orders;
:mod:`.server` the authoritative table server (``atout serve``): its connections, with
:mod:`.messages` (the handlers of the messages), :mod:`.tablerunner` (what runs the
tables: saves, timers, sends, bots and deals), :mod:`.tables` (a table's state and what
each connection is sent) and :mod:`.saves`; :mod:`.front` the process that routes the
connections to several worker processes (``atout serve --workers N``) and
:mod:`.runner` how a server runs (in a thread, as a worker, until stopped);
:mod:`.connection` the client a front end uses (a background thread, polled or waited
on) and :mod:`.client` the remote table on it.  The protocol is documented in
``docs/protocol.md``.
"""
