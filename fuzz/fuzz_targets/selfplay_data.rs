//! Training data files (`dama tune play`, `tune detours`, `tune import`): any bytes read as
//! International data either fail with an error or give at most the allowed number of
//! records, each of which writes back to the bytes it was read from; they never panic.
#![no_main]
use dama_core::Variant;
use dama_engine::selfplay::{self, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(read) = selfplay::read(data, Variant::International, 100) {
        assert!(read.records.len() <= 100);
        let header = selfplay::header(Variant::International, read.kind);
        assert!(data.starts_with(header.as_bytes()));
        let body = &data[header.len()..];
        assert_eq!(body.len(), read.records.len() * Record::SIZE);
        for (r, bytes) in read.records.iter().zip(body.chunks(Record::SIZE)) {
            assert_eq!(&r.to_bytes()[..], bytes);
        }
    }
});
