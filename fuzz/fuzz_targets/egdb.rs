//! Endgame database files: any bytes read as the two-piece English database either fail with
//! an error or give a table of that size; they never panic.
#![no_main]
use dama_core::rules::English;
use dama_engine::endgame::Table;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(table) = Table::read_from::<English>(&mut &data[..], 2) {
        assert_eq!(table.pieces(), 2);
        assert!(table.longest() < 256);
    }
});
