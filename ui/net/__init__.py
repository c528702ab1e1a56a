"""Tables over the network: a websocket table server, its JSON protocol, and the client.

:mod:`.protocol` holds the messages and the wire forms of a view and of the rules;
:mod:`.server` the authoritative table server (``atout serve``); :mod:`.client` the
client a front end uses (a background thread, polled or waited on).  The protocol is
documented in ``docs/protocol.md``.
"""
