-- kplan import (importers/store_class.c): one host port of a pod class.
INSERT INTO class_port(class_id, seq, host_ip, protocol, host_port, container_port, sidecar)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
